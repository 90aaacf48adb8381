// The runtime: one pipeline for backtest, paper and live.
export { createRuntime, type Runtime, type RuntimeOptions, type StopOptions } from './runtime.js';
export type { PositionSummary, RuntimeSummary } from './summary.js';
export type { StrategyState } from './strategy-host.js';
export {
  EXECUTION_DENIAL_CODES,
  type DenialInfo,
  type MismatchKind,
  type RuntimeEvent,
  type RuntimeEventType,
} from '../execution/events.js';
