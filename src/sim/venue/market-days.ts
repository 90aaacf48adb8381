// Market-local days and regular sessions as UTC ranges, cached per market: the Intl work happens once per
// market day, and asking about a time inside the cached day is a couple of comparisons.
import { REGULAR_SESSIONS, timeZoneOf } from '../../domain/market-hours.js';
import type { Market } from '../../domain/symbol.js';
import { fromLocal, localDate, startOfLocalDay } from '../../domain/time-zone.js';

interface DayWindow {
  /** yyyymmdd of the local date. */
  key: number;
  start: number;
  end: number;
  /** [begin, end) UTC pairs of the day's regular sessions. */
  sessions: number[];
}

export class MarketDays {
  private readonly zone: string;
  private readonly day: DayWindow = { key: 0, start: Number.POSITIVE_INFINITY, end: Number.NEGATIVE_INFINITY, sessions: [] };

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
    const day = this.day;
    if (time >= day.start && time < day.end) return day;
    const date = localDate(time, this.zone);
    const [year, month, dayOfMonth] = date.split('-').map(Number) as [number, number, number];
    day.key = year * 10_000 + month * 100 + dayOfMonth;
    day.start = startOfLocalDay(date, this.zone);
    day.end = startOfLocalDay(nextDate(date), this.zone);
    day.sessions = REGULAR_SESSIONS[this.market].flatMap((session) => [
      fromLocal({ year, month, day: dayOfMonth, hour: Math.floor(session.begin / 100), minute: session.begin % 100, second: 0 }, this.zone),
      fromLocal({ year, month, day: dayOfMonth, hour: Math.floor(session.end / 100), minute: session.end % 100, second: 0 }, this.zone),
    ]);
    return day;
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
