// The risk layer: configured limits, pure checks, and the kill switches' memory.
export {
  loadRiskConfig,
  NO_LIMITS,
  parseRiskConfig,
  riskConfigSchema,
  type RiskLimits,
  type SessionRule,
  type SessionWindowRule,
} from './config.js';
export { APPROVED, DENIAL_CODES, deny, type Approval, type Denial, type DenialCode, type RiskDecision } from './decision.js';
export { evaluateRisk, type FiguresError, type RiskSnapshot } from './engine.js';
export { FRESH_EQUITY_WATCH, observeEquity, type EquityWatch, type Trip } from './equity-watch.js';
export { exposureChange, openingOf, signedQuantity, type ExposureChange } from './exposure.js';
export { inAllowedSession } from './sessions.js';
