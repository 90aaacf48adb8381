// `longport-trader/runtime`: the one pipeline of backtest, paper and live (feeds → strategies → risk →
// executor → a Broker), the journal and the clocks, for embedding it with your own Broker or market data.
export * from '../runtime/index.js';
export * from '../risk/index.js';
export * from '../execution/index.js';
export * from '../store/index.js';
export { isStrategyDefinition, loadStrategy } from '../strategy/loader.js';
export { clockScheduler } from '../clock/scheduler.js';
export { systemClock } from '../clock/system-clock.js';
export { VirtualClock } from '../clock/virtual-clock.js';
