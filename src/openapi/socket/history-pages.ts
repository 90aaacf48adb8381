// Pages through a date range of history candlesticks: each call returns at most the service's page of bars
// from its start date, so the next call starts at the last bar's date (intraday) or the day after (daily).
import type { Candle } from '../../domain/candle.js';
import { isIntraday } from '../../domain/period.js';
import { marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { localDate } from '../../domain/time-zone.js';

export interface HistoryRange {
  /** YYYY-MM-DD, inclusive, market-local. */
  readonly from: string;
  readonly to: string;
}

/** "2024-01-31" → "2024-02-01". */
export function nextDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

export async function* historyPages(
  symbol: SecuritySymbol,
  range: HistoryRange,
  fetchPage: (from: string, to: string) => Promise<Candle[]>,
): AsyncGenerator<Candle[]> {
  const zone = timeZoneOf(marketOf(symbol));
  let start = range.from;
  let last = Number.NEGATIVE_INFINITY;
  while (start <= range.to) {
    const page = await fetchPage(start, range.to);
    const fresh = page.filter((candle) => candle.time > last).sort((a, b) => a.time - b.time);
    if (fresh.length === 0) {
      if (page.length === 0) return;
      // The page repeated bars we have (a day cut by the page size): move past that day.
      start = maxDate(nextDate(start), nextDate(localDate(last, zone)));
      continue;
    }
    yield fresh;
    last = fresh.at(-1)!.time;
    const lastDate = localDate(last, zone);
    if (lastDate >= range.to) return;
    start = isIntraday(fresh[0]!.period) ? maxDate(start, lastDate) : maxDate(nextDate(start), nextDate(lastDate));
  }
}

function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}
