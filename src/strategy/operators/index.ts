// The operators strategies get from the framework.
export { crossover, type Cross } from './crossover.js';
export { closeOf, type Price } from './closes.js';
export { atr, donchian, ema, indicator, rsi, sma, type StreamingIndicator } from './indicator.js';
