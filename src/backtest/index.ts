// Backtests: the runtime of `trader run` against the simulated venue over candle history, and its outputs.
export { BarCloseTimes } from './bar-close.js';
export { BacktestBroker } from './broker.js';
export { backtestData, loadBacktestData, symbolsOfDataPath, type BacktestData, type DataOptions } from './data.js';
export {
  DEFAULT_CASH,
  runBacktest,
  type BacktestOptions,
  type BacktestRun,
  type BacktestVenueSettings,
  type RecordedIntent,
} from './engine.js';
export { BacktestMarketData } from './market-data.js';
export { checkResample, resample, resampleProblem } from './resample.js';
export { createEquityRecorder, type EquityPoint, type EquityRecorder } from './metrics/equity-recorder.js';
export { buildResult, formatResultJson } from './report/result-builder.js';
export { renderReport } from './report/html.js';
export { colorEnabled, formatSummary } from './summary.js';
export { createProgress, type Progress } from './progress.js';
export type { BacktestRecord, BacktestResult } from './result.js';
