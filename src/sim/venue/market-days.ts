// Market-local days and regular sessions as UTC ranges, cached per market: a new market day is arithmetic
// over the zone's offsets (zone-offsets.ts), and asking about a time inside a cached day is a few
// comparisons. A few days stay cached, because callers alternate between days (the clock's today and the
// day of the bar being matched).
import { REGULAR_SESSIONS, timeZoneOf } from '../../domain/market-hours.js';
import type { Market } from '../../domain/symbol.js';
import { ZoneOffsets } from './zone-offsets.js';

/** One market day; the cache reuses these objects, so loading a day allocates nothing. */
interface DayWindow {
  /** yyyymmdd of the local date. */
  key: number;
  start: number;
  end: number;
  /** [begin, end) UTC pairs of the day's regular sessions. */
  readonly sessions: number[];
}

const CACHED_DAYS = 4;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export class MarketDays {
  private readonly offsets: ZoneOffsets;
  /** Regular sessions as [begin, end) minutes after local midnight. */
  private readonly sessionMinutes: readonly number[];
  /** Most recently used first; `loaded` of them hold days. */
  private readonly days: DayWindow[];
  private loaded = 0;

  constructor(market: Market) {
    this.offsets = ZoneOffsets.of(timeZoneOf(market));
    this.sessionMinutes = REGULAR_SESSIONS[market].flatMap((session) => [minutesOf(session.begin), minutesOf(session.end)]);
    this.days = Array.from({ length: CACHED_DAYS }, () => ({ key: 0, start: 0, end: 0, sessions: this.sessionMinutes.map(() => 0) }));
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

  /** Regular sessions of the day of an instant, as [begin, end) UTC pairs (read them before asking about another day). */
  sessionsOf(time: number): readonly number[] {
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

  // The same instants as domain startOfLocalDay and fromLocal (which takes daytime hours at the offset of
  // 12:00 UTC of the date), without Intl.
  private load(time: number, into: DayWindow): void {
    const dayNumber = Math.floor((time + this.offsets.offsetAt(time)) / DAY_MS);
    const noonOffset = this.offsets.offsetAt(dayNumber * DAY_MS + 12 * HOUR_MS);
    into.key = dateKeyOfDay(dayNumber);
    into.start = this.localMidnight(dayNumber);
    into.end = this.localMidnight(dayNumber + 1);
    const minutes = this.sessionMinutes;
    for (let index = 0; index < minutes.length; index++) into.sessions[index] = dayNumber * DAY_MS + minutes[index]! * 60_000 - noonOffset;
  }

  /** The instant whose local wall time is 00:00 of day `dayNumber` (days since 1970-01-01). */
  private localMidnight(dayNumber: number): number {
    const wall = dayNumber * DAY_MS;
    let instant = wall - this.offsets.offsetAt(wall);
    instant = wall - this.offsets.offsetAt(instant);
    return instant;
  }
}

function minutesOf(hhmm: number): number {
  return Math.floor(hhmm / 100) * 60 + (hhmm % 100);
}

/** yyyymmdd of a day number (days since 1970-01-01), by the civil-from-days algorithm (proleptic Gregorian). */
function dateKeyOfDay(dayNumber: number): number {
  const shifted = dayNumber + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return year * 10_000 + month * 100 + day;
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
