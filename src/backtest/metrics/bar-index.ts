// Finds which bar of a symbol a time falls in, for "bars held" and for placing fills on the chart.
import type { Candle } from '../../domain/candle.js';
import type { SecuritySymbol } from '../../domain/symbol.js';

export type BarLocator = (symbol: SecuritySymbol, time: number) => number;

/**
 * Index of the last bar of the symbol starting at or before `time` (0 when the time precedes every bar,
 * −1 when the symbol has no bars). Binary search over each symbol's bar times.
 */
export function barLocator(bars: ReadonlyMap<SecuritySymbol, readonly Candle[]>): BarLocator {
  return (symbol, time) => {
    const candles = bars.get(symbol);
    if (candles === undefined || candles.length === 0) return -1;
    let low = 0;
    let high = candles.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (candles[middle]!.time <= time) low = middle;
      else high = middle - 1;
    }
    return low;
  };
}
