// The operators strategies get from the framework.
export { crossover, type Cross } from './crossover.js';
export { atr, closeOf, donchian, ema, indicator, rsi, sma, type Price, type StreamingIndicator } from './indicator.js';
