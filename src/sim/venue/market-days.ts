// Market-local days and regular sessions as UTC ranges, cached per market: the Intl work happens once per
// market day, and asking about a time inside a cached day is a few comparisons. A few days stay cached,
// because callers alternate between days (the clock's today and the day of the bar being matched).
import { REGULAR_SESSIONS, timeZoneOf } from '../../domain/market-hours.js';
import type { Market } from '../../domain/symbol.js';
import { fromLocal, localDate, startOfLocalDay } from '../../domain/time-zone.js';

interface DayWindow {
  /** yyyymmdd of the local date. */
  readonly key: number;
  readonly start: number;
  readonly end: number;
  /** [begin, end) UTC pairs of the day's regular sessions. */
  readonly sessions: readonly number[];
}

const CACHED_DAYS = 4;

export class MarketDays {
  private readonly zone: string;
  /** Most recently used first. */
  private readonly days: DayWindow[] = [];

  constructor(private readonly market: Market) {
    this.zone = timeZoneOf(market);
  }

  /** yyyymmdd of the market-local date of an instant. */
  dayKey(time: number): number {
    return this.window(time).key;
  }

  /** End (exclusive, UTC ms) of the market-local day of an instant. */
  dayEnd(time: number): number {
    return this.window(time).end;
  }

  /** Whether an instant falls inside one of the market's regular sessions. */
  inSession(time: number): boolean {
    const sessions = this.window(time).sessions;
    for (let index = 0; index < sessions.length; index += 2) {
      if (time >= sessions[index]! && time < sessions[index + 1]!) return true;
    }
    return false;
  }

  /** Regular sessions of the day of an instant, as [begin, end) UTC pairs. */
  sessionsOf(time: number): readonly number[] {
    return this.window(time).sessions;
  }

  private window(time: number): DayWindow {
    const days = this.days;
    for (let index = 0; index < days.length; index++) {
      const day = days[index]!;
      if (time >= day.start && time < day.end) {
        if (index !== 0) {
          days.splice(index, 1);
          days.unshift(day);
        }
        return day;
      }
    }
    const day = this.load(time);
    days.unshift(day);
    if (days.length > CACHED_DAYS) days.pop();
    return day;
  }

  private load(time: number): DayWindow {
    const date = localDate(time, this.zone);
    const [year, month, dayOfMonth] = date.split('-').map(Number) as [number, number, number];
    const at = (hhmm: number): number => fromLocal({ year, month, day: dayOfMonth, hour: Math.floor(hhmm / 100), minute: hhmm % 100, second: 0 }, this.zone);
    return {
      key: year * 10_000 + month * 100 + dayOfMonth,
      start: startOfLocalDay(date, this.zone),
      end: startOfLocalDay(nextDate(date), this.zone),
      sessions: REGULAR_SESSIONS[this.market].flatMap((session) => [at(session.begin), at(session.end)]),
    };
  }
}

/** The calendar date after a "YYYY-MM-DD" date. */
export function nextDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/** yyyymmdd of a "YYYY-MM-DD" date. */
export function dateKey(date: string): number {
  return Number(date.replaceAll('-', ''));
}
