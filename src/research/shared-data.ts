// Candle history shared with worker threads without copying: each series' numeric columns in one
// SharedArrayBuffer (structured clone passes the buffer, not its bytes), rebuilt into candles once per worker.
import type { BacktestData } from '../backtest/data.js';
import type { Candle } from '../domain/candle.js';
import type { Period } from '../domain/period.js';
import type { SecuritySymbol } from '../domain/symbol.js';

/** Columns per bar, in this order, each a Float64Array view of the series' buffer. */
const COLUMNS = ['time', 'open', 'high', 'low', 'close', 'volume', 'turnover'] as const;

export interface SharedSeries {
  readonly symbol: SecuritySymbol;
  readonly source: string;
  readonly length: number;
  /** COLUMNS.length × length float64s; turnover is NaN where the source had none. */
  readonly buffer: SharedArrayBuffer;
}

/** What a worker needs to rebuild the data; `id` names it in the workers' caches (the content hash). */
export interface SharedData {
  readonly id: string;
  readonly period: Period;
  readonly currency: string;
  readonly series: readonly SharedSeries[];
}

/**
 * Puts the data's numeric columns into shared memory. This is the one place that knows where the columns
 * come from: when the candle loader hands out typed columns, point it at those instead of copying.
 */
export function shareData(data: BacktestData, id: string): SharedData {
  return {
    id,
    period: data.period,
    currency: data.currency,
    series: data.series.map((series) => {
      const length = series.candles.length;
      const buffer = new SharedArrayBuffer(COLUMNS.length * length * Float64Array.BYTES_PER_ELEMENT);
      const columns = COLUMNS.map((_, column) => new Float64Array(buffer, column * length * 8, length));
      series.candles.forEach((candle, index) => {
        columns[0]![index] = candle.time;
        columns[1]![index] = candle.open;
        columns[2]![index] = candle.high;
        columns[3]![index] = candle.low;
        columns[4]![index] = candle.close;
        columns[5]![index] = candle.volume;
        columns[6]![index] = candle.turnover ?? Number.NaN;
      });
      return { symbol: series.symbol, source: series.source, length, buffer };
    }),
  };
}

/** The backtest data over shared columns (candle objects are built here, once per worker and data). */
export function dataFromShared(shared: SharedData): BacktestData {
  return {
    period: shared.period,
    currency: shared.currency,
    skippedRows: 0,
    problems: [],
    series: shared.series.map((series) => {
      const { length, buffer, symbol } = series;
      const [time, open, high, low, close, volume, turnover] = COLUMNS.map(
        (_, column) => new Float64Array(buffer, column * length * 8, length),
      ) as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
      const candles: Candle[] = new Array(length);
      for (let index = 0; index < length; index += 1) {
        const candle: Candle = {
          symbol,
          period: shared.period,
          time: time[index]!,
          open: open[index]!,
          high: high[index]!,
          low: low[index]!,
          close: close[index]!,
          volume: volume[index]!,
          ...(Number.isNaN(turnover[index]!) ? {} : { turnover: turnover[index]! }),
        };
        candles[index] = candle;
      }
      return { symbol, period: shared.period, source: series.source, candles };
    }),
  };
}

/** The bars with start times in [from, to) (epoch ms), for walk-forward windows. */
export function sliceData(data: BacktestData, from: number, to: number): BacktestData {
  return {
    ...data,
    series: data.series.map((series) => ({
      ...series,
      candles: series.candles.slice(firstAtOrAfter(series.candles, from), firstAtOrAfter(series.candles, to)),
    })),
  };
}

function firstAtOrAfter(candles: readonly Candle[], time: number): number {
  let low = 0;
  let high = candles.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (candles[middle]!.time < time) low = middle + 1;
    else high = middle;
  }
  return low;
}
