// Market-local wall time ⇄ UTC instants, via Intl (no I/O). Offsets are cached per zone and local day,
// so reading a million minute bars costs one Intl call per trading day, not per bar.
import { InvalidInputError } from './errors.js';

export interface LocalDateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, number>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new InvalidInputError(`unknown time zone "${zone}"`, 'timezone');
    }
    formatters.set(zone, format);
  }
  return format;
}

// What the formatter writes for ordinary dates ("7/15/2020, 09:30:00"); anything else (eras, odd years)
// is read through formatToParts. format() plus this pattern costs a quarter of formatToParts.
const NUMERIC_TEXT = /^(\d{1,2})\/(\d{1,2})\/(\d{1,6}), (\d{1,2}):(\d{2}):(\d{2})$/;

/** The wall-clock fields of an instant in a zone. */
export function toLocal(utcMs: number, zone: string): LocalDateTime {
  const format = formatter(zone);
  const date = new Date(utcMs);
  const match = NUMERIC_TEXT.exec(format.format(date));
  if (match !== null) {
    return {
      year: Number(match[3]),
      month: Number(match[1]),
      day: Number(match[2]),
      hour: Number(match[4]),
      minute: Number(match[5]),
      second: Number(match[6]),
    };
  }
  const parts = format.formatToParts(date);
  const field = (type: string): number => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return {
    year: field('year'),
    month: field('month'),
    day: field('day'),
    hour: field('hour'),
    minute: field('minute'),
    second: field('second'),
  };
}

/** Offset of the zone from UTC, in ms, at an instant (positive east of Greenwich). */
export function zoneOffsetAt(utcMs: number, zone: string): number {
  const local = toLocal(utcMs, zone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The instant of a zone's wall-clock time. A time skipped by a daylight-saving jump resolves forward;
 * a repeated one resolves to its first occurrence.
 */
export function fromLocal(local: LocalDateTime, zone: string): number {
  const naive = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  const key = `${zone}|${local.year}-${local.month}-${local.day}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    // The offset at local noon: daylight-saving changes happen at night, so it holds for the trading day.
    offset = zoneOffsetAt(Date.UTC(local.year, local.month - 1, local.day, 12), zone);
    offsetCache.set(key, offset);
  }
  const hour = local.hour;
  if (hour >= 4 && hour <= 22) return naive - offset;
  return resolveNightTime(naive, zone);
}

// Night hours may fall in a daylight-saving gap or overlap: try the offsets of the day before and after,
// keep the earliest that reproduces the wall time, and resolve a skipped time forward.
function resolveNightTime(naive: number, zone: string): number {
  const before = zoneOffsetAt(naive - 86_400_000, zone);
  const after = zoneOffsetAt(naive + 86_400_000, zone);
  const candidates = [naive - before, naive - after].sort((a, b) => a - b);
  for (const candidate of candidates) {
    if (candidate + zoneOffsetAt(candidate, zone) === naive) return candidate;
  }
  return naive - before;
}

/** "YYYY-MM-DD" of an instant in a zone. */
export function localDate(utcMs: number, zone: string): string {
  const local = toLocal(utcMs, zone);
  return `${local.year}-${pad(local.month)}-${pad(local.day)}`;
}

/** Midnight (start of the local day) of a "YYYY-MM-DD" date in a zone. */
export function startOfLocalDay(date: string, zone: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (match === null) throw new InvalidInputError(`date "${date}" must be YYYY-MM-DD`, 'date');
  return fromLocal({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]), hour: 0, minute: 0, second: 0 }, zone);
}

export function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}
