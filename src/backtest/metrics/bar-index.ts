// Finds which bar of a symbol a time falls in, for "bars held" and for placing fills on the chart.
import type { SecuritySymbol } from '../../domain/symbol.js';
import { type BarHistory, barFields } from '../bar-history.js';

export type BarLocator = (symbol: SecuritySymbol, time: number) => number;

/**
 * Index of the last bar of the symbol starting at or before `time` (0 when the time precedes every bar,
 * −1 when the symbol has no bars). Binary search over each symbol's bar times.
 */
export function barLocator(bars: ReadonlyMap<SecuritySymbol, BarHistory>): BarLocator {
  const timesOf = new Map<SecuritySymbol, ArrayLike<number>>();
  return (symbol, time) => {
    const history = bars.get(symbol);
    if (history === undefined || history.length === 0) return -1;
    let times = timesOf.get(symbol);
    if (times === undefined) {
      times = barFields(history).time;
      timesOf.set(symbol, times);
    }
    let low = 0;
    let high = times.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (times[middle]! <= time) low = middle;
      else high = middle - 1;
    }
    return low;
  };
}
