// A time zone's UTC offset at any instant from its transitions, found once per year with a few dozen Intl
// calls (month starts sampled, each change located to the minute). After that, local dates and times are
// arithmetic: a backtest over a million bars asks Intl a few thousand times, not per market day.
// Assumes at most one offset change per calendar month, which holds for the markets' zones.
import { zoneOffsetAt } from '../../domain/time-zone.js';

interface YearOffsets {
  readonly start: number;
  readonly end: number;
  /** Instants from which `offsets[i + 1]` applies; `offsets[0]` applies from `start`. */
  readonly changes: readonly number[];
  readonly offsets: readonly number[];
}

const MINUTE_MS = 60_000;
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
      if (samples[month] === samples[month + 1]) continue;
      // The first whole minute in (low, high] with the new offset.
      let low = monthStarts[month]!;
      let high = monthStarts[month + 1]!;
      while (high - low > MINUTE_MS) {
        const middle = low + Math.floor((high - low) / (2 * MINUTE_MS)) * MINUTE_MS;
        if (zoneOffsetAt(middle, this.zone) === samples[month]) low = middle;
        else high = middle;
      }
      changes.push(high);
      offsets.push(samples[month + 1]!);
    }
    year = { start: monthStarts[0]!, end: monthStarts[12]!, changes, offsets };
    this.years.set(fullYear, year);
    return year;
  }
}
