// A closed OHLCV bar. Prices are floats on purpose: candles are the backtest's hot path, and the shortest
// round-trip form of each float is the decimal text it was read from (Price.of reads it back exactly).
import type { Period } from './period.js';
import type { SecuritySymbol } from './symbol.js';

export interface Candle {
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  /** Bar start, epoch milliseconds (UTC instant of the market-local bar start). */
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
  /** Traded value over the bar, when the source provides it. */
  readonly turnover?: number;
}
