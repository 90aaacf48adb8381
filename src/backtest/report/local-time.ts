// Market-local wall time of instants, for the JSON (ISO with offset), the tables and the charts.
import { pad, zoneOffsetAt } from '../../domain/time-zone.js';

const DAY_MS = 86_400_000;
/** Offsets change on quarter hours at most: on a day with a change, one lookup per quarter hour. */
const BUCKET_MS = 900_000;

export interface LocalTime {
  /** "2024-01-02T09:30:00+08:00". */
  iso(epochMs: number): string;
  /** Seconds of the local wall time read as if it were UTC: what a chart's UTC axis should show. */
  chartSeconds(epochMs: number): number;
}

export function localTime(zone: string): LocalTime {
  const cache = new Map<number, number>();
  const lookup = (epochMs: number): number => {
    let value = cache.get(epochMs);
    if (value === undefined) {
      value = zoneOffsetAt(epochMs, zone);
      cache.set(epochMs, value);
    }
    return value;
  };
  // Intl lookups are slow; a UTC day whose start and end share an offset (all but two a year) needs one.
  const offset = (epochMs: number): number => {
    const dayStart = Math.floor(epochMs / DAY_MS) * DAY_MS;
    const atStart = lookup(dayStart);
    if (lookup(dayStart + DAY_MS) === atStart) return atStart;
    return lookup(Math.floor(epochMs / BUCKET_MS) * BUCKET_MS);
  };
  const wall = (epochMs: number): string => new Date(epochMs + offset(epochMs)).toISOString();
  return {
    iso(epochMs) {
      const minutes = Math.round(offset(epochMs) / 60_000);
      const sign = minutes < 0 ? '-' : '+';
      const absolute = Math.abs(minutes);
      return `${wall(epochMs).slice(0, 19)}${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
    },
    chartSeconds(epochMs) {
      return Math.floor((epochMs + offset(epochMs)) / 1000);
    },
  };
}
