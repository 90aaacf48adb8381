// The strategy API: what strategy files import.
export {
  defineStrategy,
  STRATEGY_TAG,
  type CallbackResult,
  type CallbackStrategySpec,
  type RxStrategySpec,
  type StrategyDefinition,
  type Warmup,
} from './define.js';
export type {
  AccountView,
  DecimalInput,
  IntentDenial,
  IntentOptions,
  PositionsView,
  StrategyContext,
  StrategyLog,
  StrategyOrderUpdate,
} from './context.js';
export { createIntentHelpers, toPrice, toQuantity, toSymbol } from './intents.js';
export { StrategyFailedError, StrategyLoadError } from './errors.js';
export { isStrategyDefinition, loadStrategy } from './loader.js';
export {
  parseParamAssignments,
  resolveParams,
  schemaFromDefaults,
  type ParamDefaults,
  type ParamOverrides,
  type Params,
  type ParamValue,
} from './params.js';
export { prepareStrategy, type PreparedStrategy, type StrategyOverrides } from './prepare.js';
export * from './operators/index.js';
