// Day bars that fall on a Saturday or Sunday in their market's zone: what day rows stamped with a time and
// an offset give (2024-01-08T00:00:00Z is the evening of the 7th in New York), read as the instants they say.
import { DAY_MS } from '../domain/civil-date.js';
import { timeZoneOf } from '../domain/market-hours.js';
import { marketOf } from '../domain/symbol.js';
import { ZoneRules } from '../domain/time-zone.js';
import type { CandleSeries } from '../feeds/history/candle-files.js';

/** Looked at per series: a shifted file shifts nearly every bar, so its first bars tell. */
const CHECKED_BARS = 50;

export interface WeekendDayBars {
  readonly series: CandleSeries;
  readonly checked: number;
  readonly onWeekend: number;
  /** Epoch ms of the first of them. */
  readonly first: number;
}

/** The first series of day bars with bars on a weekend among its first ones, or undefined. */
export function weekendDayBars(series: readonly CandleSeries[]): WeekendDayBars | undefined {
  for (const one of series) {
    const zone = ZoneRules.of(timeZoneOf(marketOf(one.symbol)));
    const times = one.columns.time;
    const checked = Math.min(CHECKED_BARS, one.columns.length);
    let onWeekend = 0;
    let first = Number.NaN;
    for (let index = 0; index < checked; index += 1) {
      const time = times[index]!;
      const day = Math.floor((time + zone.offsetAt(time)) / DAY_MS);
      // 1970-01-01 was a Thursday: day 0 is weekday 4 (Sunday 0).
      const weekday = (((day + 4) % 7) + 7) % 7;
      if (weekday !== 0 && weekday !== 6) continue;
      onWeekend += 1;
      if (Number.isNaN(first)) first = time;
    }
    if (onWeekend > 0) return { series: one, checked, onWeekend, first };
  }
  return undefined;
}
