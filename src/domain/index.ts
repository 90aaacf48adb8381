// The domain vocabulary in one import for code outside src/domain.
export * from './account.js';
export * from './candle.js';
export * from './clock.js';
export * from './decimal.js';
export * from './errors.js';
export * from './fill.js';
export * from './intent.js';
export * from './order.js';
export * from './order-state-machine.js';
export * from './order-status.js';
export * from './order-types.js';
export * from './period.js';
export * from './position.js';
export * from './quote.js';
export * from './symbol.js';
export * from './market-hours.js';
export * from './time-zone.js';
