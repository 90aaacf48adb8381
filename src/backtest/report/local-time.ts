// Market-local wall time of instants, for the JSON (ISO with offset), the tables and the charts. A result
// formats a time for every fill and trade, so the text is made by arithmetic over the zone's offset table
// (no Date object, no Intl), and each zone's formatter is shared.
import { DAY_MS, dateKeyOfDay } from '../../domain/civil-date.js';
import { ZoneRules } from '../../domain/time-zone.js';

export interface LocalTime {
  /** "2024-01-02T09:30:00+08:00". */
  iso(epochMs: number): string;
  /** Seconds of the local wall time read as if it were UTC: what a chart's UTC axis should show. */
  chartSeconds(epochMs: number): number;
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, value) => String(value).padStart(2, '0'));
const zones = new Map<string, LocalTime>();

export function localTime(zone: string): LocalTime {
  let local = zones.get(zone);
  if (local === undefined) {
    local = zoneTime(ZoneRules.of(zone));
    zones.set(zone, local);
  }
  return local;
}

function zoneTime(rules: ZoneRules): LocalTime {
  // The offset text of the last offset seen ("+08:00"): a zone has a few offsets, met in long runs.
  let lastOffset = Number.NaN;
  let lastOffsetText = '';
  const offsetText = (offset: number): string => {
    if (offset !== lastOffset) {
      const minutes = Math.round(offset / 60_000);
      const absolute = Math.abs(minutes);
      lastOffsetText = `${minutes < 0 ? '-' : '+'}${TWO_DIGITS[Math.floor(absolute / 60)]}:${TWO_DIGITS[absolute % 60]}`;
      lastOffset = offset;
    }
    return lastOffsetText;
  };
  return {
    iso(epochMs) {
      const offset = rules.offsetAt(epochMs);
      const wall = epochMs + offset;
      const day = Math.floor(wall / DAY_MS);
      const key = dateKeyOfDay(day);
      const seconds = Math.floor((wall - day * DAY_MS) / 1000);
      const year = Math.floor(key / 10_000);
      return `${year < 1000 ? String(year).padStart(4, '0') : year}-${TWO_DIGITS[Math.floor(key / 100) % 100]}-${TWO_DIGITS[key % 100]}T${
        TWO_DIGITS[Math.floor(seconds / 3600)]
      }:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}${offsetText(offset)}`;
    },
    chartSeconds(epochMs) {
      return Math.floor((epochMs + rules.offsetAt(epochMs)) / 1000);
    },
  };
}
