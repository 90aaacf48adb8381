// Candles of a coarser period built from finer ones (1m → 5m, 1m → day, day → month, …), bucketed in the
// market's local time: intraday buckets are the live feed's bar windows (counted from each session's open,
// cut at its end: HK 60m 11:30–12:00, then 13:00), calendar buckets are the local day, ISO week, month,
// quarter or year. A period that cannot be built (5m from 3m, 1m from day) is undefined.
import type { Candle } from '../../../domain/candle.js';
import { timeZoneOf } from '../../../domain/market-hours.js';
import { isIntraday, periodMinutes, type Period } from '../../../domain/period.js';
import { marketOf, type Market } from '../../../domain/symbol.js';
import { barWindow } from '../../../feeds/live/bar-window.js';
import { startOfLocalDay } from '../../../domain/time-zone.js';
import type { MarketDays } from '../../venue/market-days.js';

const CALENDAR_RANK: Readonly<Record<string, number>> = { day: 1, week: 2, month: 3, quarter: 4, year: 5 };

export function canAggregate(from: Period, to: Period): boolean {
  if (from === to) return true;
  const fromMinutes = periodMinutes(from);
  const toMinutes = periodMinutes(to);
  if (fromMinutes !== undefined) return toMinutes === undefined || (toMinutes > fromMinutes && toMinutes % fromMinutes === 0);
  if (toMinutes !== undefined || from === 'week') return false;
  return CALENDAR_RANK[to]! > CALENDAR_RANK[from]!;
}

/** `candles` (one symbol, bars of `from`, oldest first) as bars of `to`; undefined when `to` cannot be built from `from`. */
export function aggregateCandles(candles: readonly Candle[], from: Period, to: Period, days: MarketDays): Candle[] | undefined {
  if (!canAggregate(from, to)) return undefined;
  const first = candles[0];
  if (first === undefined || from === to) return candles.slice();
  const bucketOf = bucketing(to, days, marketOf(first.symbol));
  const result: Candle[] = [];
  let key: number | undefined;
  for (const candle of candles) {
    const bucket = bucketOf(candle.time);
    const last = result.at(-1);
    if (last !== undefined && bucket.key === key) {
      result[result.length - 1] = merge(last, candle);
      continue;
    }
    key = bucket.key;
    result.push({ ...candle, period: to, time: bucket.time });
  }
  return result;
}

function merge(bar: Candle, next: Candle): Candle {
  const merged: Candle = {
    symbol: bar.symbol,
    period: bar.period,
    time: bar.time,
    open: bar.open,
    high: Math.max(bar.high, next.high),
    low: Math.min(bar.low, next.low),
    close: next.close,
    volume: bar.volume + next.volume,
  };
  return bar.turnover !== undefined && next.turnover !== undefined ? { ...merged, turnover: bar.turnover + next.turnover } : merged;
}

type Bucketing = (time: number) => { readonly key: number; readonly time: number };

function bucketing(to: Period, days: MarketDays, market: Market): Bucketing {
  const zone = timeZoneOf(market);
  const dayStarts = new Map<number, number>();
  const dayStart = (dayKey: number): number => {
    let start = dayStarts.get(dayKey);
    if (start === undefined) {
      start = startOfLocalDay(isoDate(dayKey), zone);
      dayStarts.set(dayKey, start);
    }
    return start;
  };
  if (isIntraday(to)) {
    return (time) => {
      const { start } = barWindow(time, to, market);
      return { key: start, time: start };
    };
  }
  const calendarKey = calendarKeys[to as keyof typeof calendarKeys];
  return (time) => {
    const dayKey = days.dayKey(time);
    return { key: calendarKey(dayKey), time: dayStart(dayKey) };
  };
}

const calendarKeys = {
  day: (dayKey: number) => dayKey,
  week: (dayKey: number) => {
    const date = new Date(Date.UTC(Math.floor(dayKey / 10_000), (Math.floor(dayKey / 100) % 100) - 1, dayKey % 100));
    const monday = new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000);
    return monday.getUTCFullYear() * 10_000 + (monday.getUTCMonth() + 1) * 100 + monday.getUTCDate();
  },
  month: (dayKey: number) => Math.floor(dayKey / 100),
  quarter: (dayKey: number) => Math.floor(dayKey / 10_000) * 10 + Math.floor(((Math.floor(dayKey / 100) % 100) - 1) / 3),
  year: (dayKey: number) => Math.floor(dayKey / 10_000),
} as const;

/** 20240102 → "2024-01-02". */
export function isoDate(dayKey: number): string {
  const text = String(dayKey);
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}
