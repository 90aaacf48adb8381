// A symbol's bars in a backtest record: the run's columns (what the engine hands over), or candles (records
// built by hand). Readers take the fields through barFields, which costs nothing for columns.
import type { Candle } from '../domain/candle.js';
import type { CandleColumns } from '../feeds/history/candle-columns.js';

export type BarHistory = CandleColumns | readonly Candle[];

/** The fields reports read, column by column. */
export interface BarFields {
  readonly length: number;
  readonly time: ArrayLike<number>;
  readonly open: ArrayLike<number>;
  readonly high: ArrayLike<number>;
  readonly low: ArrayLike<number>;
  readonly close: ArrayLike<number>;
}

export function barFields(bars: BarHistory): BarFields {
  if (!Array.isArray(bars)) return bars as CandleColumns;
  const candles = bars as readonly Candle[];
  return {
    length: candles.length,
    time: candles.map((candle) => candle.time),
    open: candles.map((candle) => candle.open),
    high: candles.map((candle) => candle.high),
    low: candles.map((candle) => candle.low),
    close: candles.map((candle) => candle.close),
  };
}
