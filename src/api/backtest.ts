// `longport-trader/backtest`: backtests in code. Load strategies and history, run, and build the same
// result, summary and HTML report as `trader backtest`.
export * from '../backtest/index.js';
export { isStrategyDefinition, loadStrategy } from '../strategy/loader.js';
export { loadRiskConfig } from '../risk/config.js';
