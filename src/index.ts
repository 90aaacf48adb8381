// The package's root export (`import … from 'longport-trader'`): what a strategy file uses. defineStrategy,
// the context and its intent helpers, operators and indicators, params, and the domain types and values.
// Programmatic use of the rest goes through the subpaths (longport-trader/backtest, /sim, /openapi, /schedule,
// /runtime), so a strategy loads only this.
export * from './domain/index.js';
// The domain's Price (a fixed-point value) wins over the operators' price type (a number) of the same name.
export { Price } from './domain/index.js';
export {
  defineStrategy,
  STRATEGY_TAG,
  type CallbackResult,
  type CallbackStrategySpec,
  type RxStrategySpec,
  type StrategyDefinition,
  type Warmup,
} from './strategy/define.js';
export type {
  AccountView,
  DecimalInput,
  IntentDenial,
  IntentOptions,
  PositionsView,
  StrategyContext,
  StrategyLog,
  StrategyOrderUpdate,
} from './strategy/context.js';
export { createIntentHelpers, toPrice, toQuantity, toSymbol } from './strategy/intents.js';
export { roundToUnits, unrealizedPnl } from './strategy/sizing.js';
export { Indicator, indicators } from './strategy/indicators.js';
export { EXIT_TAGS, exitReached, type ExitTag } from './strategy/exit-levels.js';
export { StrategyFailedError, StrategyLoadError } from './strategy/errors.js';
export {
  parseParamAssignments,
  resolveParams,
  schemaFromDefaults,
  type ParamDefaults,
  type ParamOverrides,
  type Params,
  type ParamValue,
} from './strategy/params.js';
export { prepareStrategy, type PreparedStrategy, type StrategyOverrides } from './strategy/prepare.js';
export * from './strategy/operators/index.js';
