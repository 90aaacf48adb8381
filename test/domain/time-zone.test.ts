import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it, vi } from 'vitest';
import { fromLocal, localDate, startOfLocalDay, toLocal, ZoneRules, type ZoneTable, zoneOffsetAt } from '../../src/domain/time-zone.js';

const NEW_YORK = 'America/New_York';
const at = (text: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } => {
  const [date, time] = text.split('T') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { year, month, day, hour, minute, second: 0 };
};

describe('market-local time', () => {
  it('converts New York wall time on both sides of the spring-forward change', () => {
    expect(new Date(fromLocal(at('2024-03-08T09:30'), NEW_YORK)).toISOString()).toBe('2024-03-08T14:30:00.000Z');
    expect(new Date(fromLocal(at('2024-03-11T09:30'), NEW_YORK)).toISOString()).toBe('2024-03-11T13:30:00.000Z');
  });

  it('uses the right offset after an early-morning bar of a change day was converted first', () => {
    expect(new Date(fromLocal(at('2024-11-03T01:30'), NEW_YORK)).toISOString()).toBe('2024-11-03T05:30:00.000Z');
    expect(new Date(fromLocal(at('2024-11-03T09:30'), NEW_YORK)).toISOString()).toBe('2024-11-03T14:30:00.000Z');
  });

  it('round-trips Hong Kong times, which have no daylight saving', () => {
    const instant = fromLocal(at('2020-07-15T09:30'), 'Asia/Hong_Kong');
    expect(new Date(instant).toISOString()).toBe('2020-07-15T01:30:00.000Z');
    expect(toLocal(instant, 'Asia/Hong_Kong')).toMatchObject({ hour: 9, minute: 30 });
    expect(localDate(startOfLocalDay('2020-07-15', 'Asia/Hong_Kong'), 'Asia/Hong_Kong')).toBe('2020-07-15');
  });

  it('refuses an unknown zone', () => {
    expect(() => toLocal(0, 'Mars/Olympus')).toThrow(/unknown time zone/);
  });

  it('resolves a wall time in the spring-forward gap forward, by the length of the gap', () => {
    // 2024-03-10 02:00 EST → 03:00 EDT: 02:30 does not exist and reads as 03:30 EDT.
    const instant = fromLocal(at('2024-03-10T02:30'), NEW_YORK);
    expect(new Date(instant).toISOString()).toBe('2024-03-10T07:30:00.000Z');
    expect(toLocal(instant, NEW_YORK)).toMatchObject({ day: 10, hour: 3, minute: 30 });
    expect(new Date(fromLocal(at('2024-03-10T01:59'), NEW_YORK)).toISOString()).toBe('2024-03-10T06:59:00.000Z');
    expect(new Date(fromLocal(at('2024-03-10T03:00'), NEW_YORK)).toISOString()).toBe('2024-03-10T07:00:00.000Z');
  });

  it('resolves a wall time the fall-back change repeats to its first occurrence', () => {
    // 2024-11-03 02:00 EDT → 01:00 EST: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    expect(new Date(fromLocal(at('2024-11-03T01:30'), NEW_YORK)).toISOString()).toBe('2024-11-03T05:30:00.000Z');
    expect(toLocal(Date.parse('2024-11-03T06:30:00Z'), NEW_YORK)).toMatchObject({ hour: 1, minute: 30 });
    expect(new Date(fromLocal(at('2024-11-03T02:00'), NEW_YORK)).toISOString()).toBe('2024-11-03T07:00:00.000Z');
  });

  it('resolves a day the zone skipped forward into the next day (Samoa, 2011-12-30)', () => {
    // Apia moved from UTC−10 to UTC+14 after 2011-12-29 23:59:59: the 30th never happened there.
    const apia = 'Pacific/Apia';
    const midnight = startOfLocalDay('2011-12-30', apia);
    expect(new Date(midnight).toISOString()).toBe('2011-12-30T10:00:00.000Z');
    expect(localDate(midnight, apia)).toBe('2011-12-31');
    expect(new Date(fromLocal(at('2011-12-30T12:00'), apia)).toISOString()).toBe('2011-12-30T22:00:00.000Z');
    expect(new Date(startOfLocalDay('2011-12-29', apia)).toISOString()).toBe('2011-12-29T10:00:00.000Z');
    expect(startOfLocalDay('2011-12-31', apia)).toBe(midnight);
  });

  it('knows the rules before 1970 and after 2038', () => {
    // New York kept daylight saving from the last Sunday of April in 1960; 2050 follows today's rules.
    expect(new Date(fromLocal(at('1960-04-23T09:30'), NEW_YORK)).toISOString()).toBe('1960-04-23T14:30:00.000Z');
    expect(new Date(fromLocal(at('1960-04-25T09:30'), NEW_YORK)).toISOString()).toBe('1960-04-25T13:30:00.000Z');
    expect(zoneOffsetAt(Date.UTC(1900, 0, 1), NEW_YORK)).toBe(-5 * 3_600_000);
    expect(new Date(fromLocal(at('2050-03-11T09:30'), NEW_YORK)).toISOString()).toBe('2050-03-11T14:30:00.000Z');
    expect(new Date(fromLocal(at('2050-03-14T09:30'), NEW_YORK)).toISOString()).toBe('2050-03-14T13:30:00.000Z');
    expect(localDate(startOfLocalDay('2100-07-04', NEW_YORK), NEW_YORK)).toBe('2100-07-04');
    // Hong Kong had daylight saving until 1979.
    expect(zoneOffsetAt(Date.UTC(1975, 6, 1), 'Asia/Hong_Kong')).toBe(9 * 3_600_000);
  });

  it('sees daylight saving come back after years without, when the years are asked in order (Cairo, 2023)', () => {
    // Egypt kept UTC+2 all year from 2015 to 2022 and restored summer time (UTC+3) in 2023.
    const offsets = Array.from({ length: 10 }, (_, index) => zoneOffsetAt(Date.UTC(2015 + index, 6, 15), 'Africa/Cairo') / 3_600_000);
    expect(offsets).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 3, 3]);
  });

  it('gives the instant Temporal gives ("compatible") for any wall time of 1900–2100', () => {
    const zones = [NEW_YORK, 'Europe/London', 'Australia/Sydney', 'America/Sao_Paulo', 'Asia/Hong_Kong', 'Pacific/Apia'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(1900, 0, 1) / 60_000, max: Date.UTC(2100, 0, 1) / 60_000 }),
        (zone, wallMinute) => {
          const wall = new Date(wallMinute * 60_000);
          const fields = {
            year: wall.getUTCFullYear(),
            month: wall.getUTCMonth() + 1,
            day: wall.getUTCDate(),
            hour: wall.getUTCHours(),
            minute: wall.getUTCMinutes(),
            second: 0,
          };
          const reference = Temporal.ZonedDateTime.from({ ...fields, timeZone: zone }, { disambiguation: 'compatible' });
          expect(fromLocal(fields, zone)).toBe(reference.epochMilliseconds);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps one table per zone, and its offsets are those of Intl at every minute around the changes', () => {
    expect(ZoneRules.of(NEW_YORK)).toBe(ZoneRules.of(NEW_YORK));
    const intlOffset = (instant: number, zone: string): number => {
      const fields = fromPartsOf(instant, zone);
      return Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!) - instant;
    };
    fc.assert(
      fc.property(
        fc.constantFrom(NEW_YORK, 'Europe/London', 'Australia/Sydney', 'America/Sao_Paulo'),
        fc.constantFrom(1965, 1995, 2006, 2007, 2019, 2024, 2045, 2406),
        fc.constantFrom(2, 3, 9, 10),
        fc.integer({ min: 0, max: 31 * 1440 - 1 }),
        (zone, year, month, minute) => {
          const instant = Date.UTC(year, month, 1) + minute * 60_000;
          expect(zoneOffsetAt(instant, zone)).toBe(intlOffset(instant, zone));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** What toLocal must return: every field read from Intl's formatter parts. */
function fromPartsOf(instant: number, zone: string): Record<string, number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  return Object.fromEntries(parts.filter((part) => part.type !== 'literal').map((part) => [part.type, Number(part.value)]));
}

describe('zone rules seeded from a table (what the start-up snapshot holds)', () => {
  it('answer as the rules read from Temporal, inside the table and past its ends', () => {
    const zones = [NEW_YORK, 'Europe/London', 'Australia/Sydney'];
    const read = zones.map((zone) => ZoneRules.of(zone));
    // Through JSON, as the snapshot builder passes them.
    const tables = JSON.parse(JSON.stringify(read.map((rules) => rules.table(1990, 2030)))) as ZoneTable[];
    const seeded = tables.map((table) => ZoneRules.seed(table));

    expect(zones.every((zone, index) => ZoneRules.of(zone) === seeded[index])).toBe(true);
    expect(zones.map((zone) => ZoneRules.isSeeded(zone))).toEqual([true, true, true]);
    // Rules read from Temporal are not seeded ones (no test seeds Kolkata).
    expect([ZoneRules.of('Asia/Kolkata').zone, ZoneRules.isSeeded('Asia/Kolkata')]).toEqual(['Asia/Kolkata', false]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: zones.length - 1 }),
        fc.integer({ min: Date.UTC(1980, 0, 1) / 60_000, max: Date.UTC(2040, 0, 1) / 60_000 }),
        (index, minute) => {
          expect(seeded[index]!.offsetAt(minute * 60_000)).toBe(read[index]!.offsetAt(minute * 60_000));
          expect(seeded[index]!.instantOf(minute * 60_000)).toBe(read[index]!.instantOf(minute * 60_000));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('ask Intl nothing inside the years of the table', () => {
    const rules = ZoneRules.seed(ZoneRules.of('America/Chicago').table(2000, 2010));
    const formatToParts = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      for (let day = 0; day < 3653; day += 1) rules.instantOf(Date.UTC(2000, 0, 1 + day, 9, 30));
      expect(formatToParts).not.toHaveBeenCalled();
      rules.instantOf(Date.UTC(2015, 5, 1));
      expect(formatToParts).toHaveBeenCalled();
    } finally {
      formatToParts.mockRestore();
    }
  });
});

describe('wall-clock fields', () => {
  it('are the formatter parts at any instant of years 1 to 12000', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(NEW_YORK, 'Asia/Hong_Kong', 'Asia/Kolkata', 'UTC'),
        fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(12_000, 0, 1) }),
        (zone, instant) => {
          expect(toLocal(instant, zone)).toEqual(fromPartsOf(instant, zone));
        },
      ),
      { numRuns: 500 },
    );
  });
});
