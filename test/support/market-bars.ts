// Market-local times and hand-made day bars for tests: "2024-01-02 10:00" in a symbol's market zone as an
// instant, and daily bars stamped at the market's local midnight (as the candle files stamp them).
import type { Candle } from '../../src/domain/candle.js';
import { timeZoneOf } from '../../src/domain/market-hours.js';
import { marketOf, type SecuritySymbol } from '../../src/domain/symbol.js';
import { fromLocal, startOfLocalDay } from '../../src/domain/time-zone.js';

/** Midnight of a market-local date: how daily bars are stamped. */
export function dayTime(symbol: SecuritySymbol, date: string): number {
  return startOfLocalDay(date, timeZoneOf(marketOf(symbol)));
}

/** An instant of market-local wall time, "2024-01-02 16:00". */
export function localTime(symbol: SecuritySymbol, text: string): number {
  const [date, time] = text.split(' ') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return fromLocal({ year, month, day, hour, minute, second: 0 }, timeZoneOf(marketOf(symbol)));
}

export function dayBar(
  symbol: SecuritySymbol,
  date: string,
  open: number,
  high: number,
  low: number,
  close: number,
  volume = 1_000_000,
): Candle {
  return { symbol, period: 'day', time: dayTime(symbol, date), open, high, low, close, volume };
}
