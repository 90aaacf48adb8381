// Warm-up history for a backtest that starts inside its data (`trader backtest --from`, walk-forward
// windows): the bars before the start, handed to the strategies as a paper run hands them the service's
// history. The runtime plays them first and drops what the strategies decide on them.
import { from, lastValueFrom, takeLast, toArray } from 'rxjs';
import type { Candle } from '../domain/candle.js';
import type { Period } from '../domain/period.js';
import type { SecuritySymbol } from '../domain/symbol.js';
import { candleAt, type CandleColumns } from '../feeds/history/candle-columns.js';
import type { BacktestData } from './data.js';
import { resample } from './resample.js';

export type HistorySource = (symbol: SecuritySymbol, period: Period, count: number) => Promise<readonly Candle[]>;

/** The last `count` bars of each symbol in `data` (of the strategy's period, built from the data's when coarser). */
export function historyOf(data: BacktestData): HistorySource {
  const bySymbol = new Map(data.series.map((series) => [series.symbol, series.columns] as const));
  return async (symbol, period, count) => {
    const columns = bySymbol.get(symbol);
    if (columns === undefined || count <= 0) return [];
    if (period === data.period) return tail(columns, count);
    // Coarser bars: resample ever longer tails of the data until they give `count` bars (or the data runs out).
    for (let bars = count * 2; ; bars *= 4) {
      const built = await lastValueFrom(from(tail(columns, bars)).pipe(resample(symbol, data.period, period), takeLast(count), toArray()));
      if (built.length >= count || bars >= columns.length) return built;
    }
  };
}

function tail(columns: CandleColumns, count: number): Candle[] {
  const start = Math.max(0, columns.length - count);
  const candles: Candle[] = [];
  for (let index = start; index < columns.length; index += 1) candles.push(candleAt(columns, index));
  return candles;
}
