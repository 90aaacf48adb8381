// A candle stream that can also hand over its bars as a place in columns, making no Candle per bar: the
// backtest's feeds do, and operators that read only closes (sma, crossover, ema, rsi) subscribe that way.
// Every such stream is an ordinary Observable<Candle> as well; a stream piped through anything else is not
// one, and its subscribers get Candles as always.
import type { Period } from './period.js';
import type { SecuritySymbol } from './symbol.js';

/** A symbol's bars as columns (the backtest's CandleColumns has this shape). */
export interface BarColumns {
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  /** Bar start, epoch ms, ascending. */
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
}

/** Takes bars as (columns, index), in time order. */
export interface BarSink {
  bar(columns: BarColumns, index: number): void;
  error(error: unknown): void;
  complete(): void;
}

export interface BarStream {
  /** Hands each bar to `sink` in its turn among the stream's subscribers; unsubscribe to stop. */
  subscribeBars(sink: BarSink): { unsubscribe(): void };
}

/** The stream's bar form, when it has one. */
export function barStreamOf(source: unknown): BarStream | undefined {
  return typeof source === 'object' && source !== null && typeof (source as Partial<BarStream>).subscribeBars === 'function'
    ? (source as BarStream)
    : undefined;
}
