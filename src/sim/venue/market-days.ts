// Market-local days and regular sessions as UTC ranges, cached per market: a new market day is arithmetic
// over the zone's rules (domain/time-zone.ts), and asking about a time inside a cached day is a few
// comparisons. A few days stay cached, because callers alternate between days (the clock's today and the
// day of the bar being matched).
import { DAY_MS, dateKeyOfDay } from '../../domain/civil-date.js';
import { REGULAR_SESSIONS, timeZoneOf } from '../../domain/market-hours.js';
import type { Market } from '../../domain/symbol.js';
import { ZoneRules } from '../../domain/time-zone.js';

/** One market day; the cache reuses these objects, so loading a day allocates nothing. */
interface DayWindow {
  /** yyyymmdd of the local date. */
  key: number;
  start: number;
  end: number;
  /** [begin, end) UTC pairs of the day's regular sessions. */
  readonly sessions: Float64Array;
}

const CACHED_DAYS = 4;
const MINUTE_MS = 60_000;

export class MarketDays {
  private readonly zone: ZoneRules;
  /** Regular sessions as [begin, end) minutes after local midnight. */
  private readonly sessionMinutes: readonly number[];
  /** Most recently used first; `loaded` of them hold days. */
  private readonly days: DayWindow[];
  private loaded = 0;
  /** The day-bar close last asked for, and its answer (see dayBarClose). */
  private closeAskedAt = Number.NaN;
  private closeAnswer = 0;

  constructor(market: Market) {
    this.zone = ZoneRules.of(timeZoneOf(market));
    this.sessionMinutes = REGULAR_SESSIONS[market].flatMap((session) => [minutesOf(session.begin), minutesOf(session.end)]);
    this.days = Array.from({ length: CACHED_DAYS }, () => ({
      key: 0,
      start: Number.NaN,
      end: Number.NaN,
      sessions: new Float64Array(this.sessionMinutes.length),
    }));
  }

  /** yyyymmdd of the market-local date of an instant. */
  dayKey(time: number): number {
    return this.window(time).key;
  }

  /** End (exclusive, UTC ms) of the market-local day of an instant. */
  dayEnd(time: number): number {
    return this.window(time).end;
  }

  /**
   * When a day bar starting at `time` closes: the end of the day's last regular session (just after `time`
   * on a day without one). The last answer is kept: every symbol of a daily universe asks about the same
   * bar time in turn.
   */
  dayBarClose(time: number): number {
    if (time !== this.closeAskedAt) {
      const sessions = this.window(time).sessions;
      this.closeAnswer = Math.max(sessions[sessions.length - 1]!, time + 1);
      this.closeAskedAt = time;
    }
    return this.closeAnswer;
  }

  /** The market-local day of an instant, as [start, end) UTC (read it before asking about another day). */
  dayOf(time: number): { readonly start: number; readonly end: number } {
    return this.window(time);
  }

  /** Whether an instant falls inside one of the market's regular sessions. */
  inSession(time: number): boolean {
    const sessions = this.window(time).sessions;
    for (let index = 0; index < sessions.length; index += 2) {
      if (time >= sessions[index]! && time < sessions[index + 1]!) return true;
    }
    return false;
  }

  /** Regular sessions of the day of an instant, as [begin, end) UTC pairs (read them before asking about another day). */
  sessionsOf(time: number): Readonly<Float64Array> {
    return this.window(time).sessions;
  }

  private window(time: number): DayWindow {
    const days = this.days;
    for (let index = 0; index < this.loaded; index++) {
      const day = days[index]!;
      if (time >= day.start && time < day.end) return this.toFront(index);
    }
    // The least recently used window (or an unused one) takes the new day.
    const index = Math.min(this.loaded, CACHED_DAYS - 1);
    this.loaded = Math.max(this.loaded, index + 1);
    this.load(time, days[index]!);
    return this.toFront(index);
  }

  private toFront(index: number): DayWindow {
    const days = this.days;
    const day = days[index]!;
    for (let position = index; position > 0; position--) days[position] = days[position - 1]!;
    days[0] = day;
    return day;
  }

  private load(time: number, into: DayWindow): void {
    const zone = this.zone;
    const dayNumber = Math.floor((time + zone.offsetAt(time)) / DAY_MS);
    const midnight = dayNumber * DAY_MS;
    into.key = dateKeyOfDay(dayNumber);
    into.start = zone.instantOf(midnight);
    into.end = zone.instantOf(midnight + DAY_MS);
    const minutes = this.sessionMinutes;
    for (let index = 0; index < minutes.length; index++) into.sessions[index] = zone.instantOf(midnight + minutes[index]! * MINUTE_MS);
  }
}

function minutesOf(hhmm: number): number {
  return Math.floor(hhmm / 100) * 60 + (hhmm % 100);
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
