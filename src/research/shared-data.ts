// Candle history shared with worker threads without copying per trial: the loader's typed columns copied
// once into one SharedArrayBuffer per series (structured clone passes the buffer, not its bytes), and
// read back in each worker as column views over that memory (no candle objects are made up front).
import type { BacktestData } from '../backtest/data.js';
import type { Period } from '../domain/period.js';
import type { SecuritySymbol } from '../domain/symbol.js';
import { candleColumns } from '../feeds/history/candle-columns.js';
import { seriesOf } from '../feeds/history/candle-files.js';

/** Columns per bar, in this order, each `length` float64s of the series' buffer. */
const COLUMNS = ['time', 'open', 'high', 'low', 'close', 'volume', 'turnover'] as const;

export interface SharedSeries {
  readonly symbol: SecuritySymbol;
  readonly source: string;
  readonly length: number;
  readonly hasTurnover: boolean;
  readonly pricePlaces: number;
  readonly volumePlaces: number;
  readonly buffer: SharedArrayBuffer;
}

/** What a worker needs to rebuild the data; `id` names it in the workers' caches (the content hash). */
export interface SharedData {
  readonly id: string;
  readonly period: Period;
  readonly currency: string;
  readonly series: readonly SharedSeries[];
}

/** Puts the data's columns (as the candle loader made them) into shared memory. */
export function shareData(data: BacktestData, id: string): SharedData {
  return {
    id,
    period: data.period,
    currency: data.currency,
    series: data.series.map((series) => {
      const columns = series.columns;
      const { length } = columns;
      const buffer = new SharedArrayBuffer(COLUMNS.length * length * Float64Array.BYTES_PER_ELEMENT);
      COLUMNS.forEach((name, index) => {
        const target = new Float64Array(buffer, index * length * 8, length);
        const source = columns[name];
        if (source === undefined) target.fill(Number.NaN);
        else target.set(source.subarray(0, length));
      });
      return {
        symbol: series.symbol,
        source: series.source,
        length,
        hasTurnover: columns.turnover !== undefined,
        pricePlaces: columns.pricePlaces,
        volumePlaces: columns.volumePlaces,
        buffer,
      };
    }),
  };
}

/** The backtest data over the shared columns: views of the shared memory, nothing copied. */
export function dataFromShared(shared: SharedData): BacktestData {
  return {
    period: shared.period,
    currency: shared.currency,
    skippedRows: 0,
    problems: [],
    series: shared.series.map((series) => {
      const { length, buffer } = series;
      const view = (index: number): Float64Array => new Float64Array(buffer, index * length * 8, length);
      const columns = candleColumns(
        { symbol: series.symbol, period: shared.period, source: series.source },
        {
          length,
          time: view(0),
          open: view(1),
          high: view(2),
          low: view(3),
          close: view(4),
          volume: view(5),
          turnover: series.hasTurnover ? view(6) : undefined,
          pricePlaces: series.pricePlaces,
          volumePlaces: series.volumePlaces,
        },
      );
      return seriesOf(columns);
    }),
  };
}
