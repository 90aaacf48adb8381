// A time zone's UTC offset at any instant from its transitions, found once per year with Intl (month starts
// sampled, each change located to the minute: confirmed where a neighbouring year predicts it, else searched).
// After that, local dates and times are arithmetic: a backtest over a million bars asks Intl a few thousand
// times, not per market day. Assumes at most one offset change per calendar month, on a whole minute, which
// holds for the markets' zones.
import { zoneOffsetAt } from '../../domain/time-zone.js';

interface YearOffsets {
  readonly start: number;
  readonly end: number;
  /** Instants from which `offsets[i + 1]` applies; `offsets[0]` applies from `start`. */
  readonly changes: readonly number[];
  readonly offsets: readonly number[];
}

const MINUTE_MS = 60_000;
const CYCLE_MS = 146_097 * 86_400_000;
const zones = new Map<string, ZoneOffsets>();

export class ZoneOffsets {
  private readonly years = new Map<number, YearOffsets>();
  private last: YearOffsets | undefined;

  private constructor(readonly zone: string) {}

  /** The shared instance of a zone. */
  static of(zone: string): ZoneOffsets {
    let offsets = zones.get(zone);
    if (offsets === undefined) {
      offsets = new ZoneOffsets(zone);
      zones.set(zone, offsets);
    }
    return offsets;
  }

  /** Offset from UTC in ms at an instant (positive east of Greenwich), as domain zoneOffsetAt reports it. */
  offsetAt(utcMs: number): number {
    let year = this.last;
    if (year === undefined || utcMs < year.start || utcMs >= year.end) {
      year = this.year(new Date(utcMs).getUTCFullYear());
      this.last = year;
    }
    const { changes, offsets } = year;
    let index = 0;
    while (index < changes.length && utcMs >= changes[index]!) index += 1;
    return offsets[index]!;
  }

  private year(fullYear: number): YearOffsets {
    let year = this.years.get(fullYear);
    if (year !== undefined) return year;
    const monthStarts = Array.from({ length: 13 }, (_, month) => Date.UTC(fullYear, month, 1));
    const samples = monthStarts.map((instant) => zoneOffsetAt(instant, this.zone));
    const changes: number[] = [];
    const offsets = [samples[0]!];
    for (let month = 0; month < 12; month += 1) {
      const before = samples[month]!;
      const after = samples[month + 1]!;
      if (before === after) continue;
      changes.push(
        this.confirmed(this.guess(fullYear, month, before, after), before, after) ??
          this.search(monthStarts[month]!, monthStarts[month + 1]!, before),
      );
      offsets.push(after);
    }
    year = { start: monthStarts[0]!, end: monthStarts[12]!, changes, offsets };
    this.years.set(fullYear, year);
    return year;
  }

  /** The first whole minute in (low, high] whose offset is no longer `before`: a bisection, ~16 Intl calls. */
  private search(low: number, high: number, before: number): number {
    while (high - low > MINUTE_MS) {
      const middle = low + Math.floor((high - low) / (2 * MINUTE_MS)) * MINUTE_MS;
      if (zoneOffsetAt(middle, this.zone) === before) low = middle;
      else high = middle;
    }
    return high;
  }

  /**
   * `guess` when it is where the offset changes from `before` to `after` (the minute before still has
   * `before`): with one change a month, on whole minutes, that is the instant the search would find.
   */
  private confirmed(guess: number | undefined, before: number, after: number): number | undefined {
    if (guess === undefined) return undefined;
    return zoneOffsetAt(guess - MINUTE_MS, this.zone) === before && zoneOffsetAt(guess, this.zone) === after ? guess : undefined;
  }

  /**
   * Where a known year changed the same way in the same month, moved to `fullYear`: 400 years (the
   * Gregorian cycle) on the same instant of the cycle; one year on, the same weekday in the same week of the
   * month (or the last such weekday) at the same time of day, as daylight-saving rules are written.
   */
  private guess(fullYear: number, month: number, before: number, after: number): number | undefined {
    for (const [known, shift] of [
      [fullYear - 400, CYCLE_MS],
      [fullYear + 400, -CYCLE_MS],
    ] as const) {
      const change = changeIn(this.years.get(known), month, before, after);
      if (change !== undefined) return change + shift;
    }
    const change = changeIn(this.years.get(fullYear - 1) ?? this.years.get(fullYear + 1), month, before, after);
    if (change === undefined) return undefined;
    const date = new Date(change);
    const timeOfDay = change - Date.UTC(date.getUTCFullYear(), month, date.getUTCDate());
    const weekday = date.getUTCDay();
    const last = date.getUTCDate() + 7 > daysIn(date.getUTCFullYear(), month);
    const week = Math.ceil(date.getUTCDate() / 7);
    const firstWeekday = new Date(Date.UTC(fullYear, month, 1)).getUTCDay();
    let day = 1 + ((weekday - firstWeekday + 7) % 7) + (week - 1) * 7;
    if (last) while (day + 7 <= daysIn(fullYear, month)) day += 7;
    return day > daysIn(fullYear, month) ? undefined : Date.UTC(fullYear, month, day) + timeOfDay;
  }
}

/** The change of `year` in `month` from `before` to `after`, if it had one. */
function changeIn(year: YearOffsets | undefined, month: number, before: number, after: number): number | undefined {
  if (year === undefined) return undefined;
  for (let index = 0; index < year.changes.length; index += 1) {
    const change = year.changes[index]!;
    if (new Date(change).getUTCMonth() === month && year.offsets[index] === before && year.offsets[index + 1] === after) return change;
  }
  return undefined;
}

function daysIn(fullYear: number, month: number): number {
  return new Date(Date.UTC(fullYear, month + 1, 0)).getUTCDate();
}
