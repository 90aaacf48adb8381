// The candle loaders' time cells: parseCommon (the shapes of most files, read first) answers as parse, the
// reference, for any cell in any order of rows (it remembers the last date between rows).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZoneRules } from '../../../src/domain/time-zone.js';
import { TimeTextReader } from '../../../src/feeds/history/time-text.js';

const two = (value: number): string => String(value).padStart(2, '0');
const digitsOrNot = (width: number, max: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max }).map((value) => String(value).padStart(width, '0')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('x'.repeat(width), ' '.repeat(width), '/'.repeat(width), ':'.repeat(width), '9'.repeat(width)),
    },
  );
const cell = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .record({
        // Near the zones' changes (March, October/November) and calendar edges (February, month ends).
        year: fc.oneof(fc.constantFrom(1900, 1970, 2000, 2011, 2024, 2038, 2100), digitsOrNot(4, 9999)),
        month: fc.oneof(fc.integer({ min: 0, max: 13 }).map(two), digitsOrNot(2, 99)),
        day: fc.oneof(fc.integer({ min: 0, max: 32 }).map(two), fc.integer({ min: 27, max: 31 }).map(two), digitsOrNot(2, 99)),
        dash: fc.constantFrom('-', '-', '-', '/'),
        time: fc.oneof(
          fc.constant(''),
          fc
            .tuple(
              fc.constantFrom('T', ' ', ' ', '_'),
              fc.oneof(fc.integer({ min: 0, max: 23 }).map(two), fc.integer({ min: 22, max: 25 }).map(two), digitsOrNot(2, 99)),
              fc.oneof(fc.integer({ min: 0, max: 59 }).map(two), fc.integer({ min: 58, max: 61 }).map(two), digitsOrNot(2, 99)),
              fc.oneof(
                fc.constant(''),
                fc.integer({ min: 0, max: 61 }).map((second) => `:${two(second)}`),
                fc.constant(':5x'),
              ),
              fc.constantFrom('', '', '', 'Z', '+08:00', '-0530', '.250', ' ', ':'),
            )
            .map(([separator, hour, minute, second, tail]) => `${separator}${hour}:${minute}${second}${tail}`),
        ),
        around: fc.constantFrom('', '', '', ' ', '\r'),
      })
      .map(({ year, month, day, dash, time, around }) => `${year}${dash}${month}-${day}${time}${around}`),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 ** 42 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '2024-02-29', '2023-02-29', '2024-03-10 02:30', '2024-11-03 01:30', '2011-12-30', '1234567890'),
  },
);

function answers(read: (bytes: Uint8Array, from: number, to: number) => boolean, reader: TimeTextReader, text: string) {
  // The cell inside a line, as the loaders see it.
  const bytes = Buffer.from(`,${text},`, 'latin1');
  return read.call(reader, bytes, 1, bytes.length - 1) ? { instant: reader.instant, dateOnly: reader.dateOnly } : false;
}

describe('TimeTextReader.parseCommon', () => {
  it.each(['America/New_York', 'UTC', 'Asia/Hong_Kong', 'Pacific/Apia', 'Europe/London'])(
    'reads any sequence of cells as parse does, in %s',
    (zone) => {
      fc.assert(
        fc.property(fc.array(cell, { maxLength: 30 }), (cells) => {
          const common = new TimeTextReader(ZoneRules.of(zone));
          const reference = new TimeTextReader(ZoneRules.of(zone));
          for (const text of cells)
            expect(answers(common.parseCommon, common, text), text).toEqual(answers(reference.parse, reference, text));
        }),
        { numRuns: 400 },
      );
    },
  );

  it('takes the common shapes itself: a date, a date and a minute, a date and a second', () => {
    const reader = new TimeTextReader(ZoneRules.of('America/New_York'));
    expect(answers(reader.parseCommon, reader, '2024-01-02')).toEqual({ instant: Date.UTC(2024, 0, 2, 5), dateOnly: true });
    expect(answers(reader.parseCommon, reader, '2024-07-02 09:30')).toEqual({ instant: Date.UTC(2024, 6, 2, 13, 30), dateOnly: false });
    expect(answers(reader.parseCommon, reader, '2024-07-02T09:30:15')).toEqual({
      instant: Date.UTC(2024, 6, 2, 13, 30, 15),
      dateOnly: false,
    });
    expect(answers(reader.parseCommon, reader, '2024-02-30')).toBe(false);
    expect(answers(reader.parseCommon, reader, '2024-07-02 24:00')).toBe(false);
  });
});

describe('TimeTextReader offsets', () => {
  const read = (text: string) => {
    const reader = new TimeTextReader(ZoneRules.of('America/New_York'));
    return answers(reader.parse, reader, text);
  };

  it('reads offsets up to ±23:59 as the instants Python gives', () => {
    // datetime.fromisoformat(text).timestamp() * 1000 (Python 3, zoneinfo audit).
    expect(read('2024-03-08T15:59:00+14:00')).toEqual({ instant: 1_709_863_140_000, dateOnly: false });
    expect(read('2024-03-08T15:59:00-12:00')).toEqual({ instant: 1_709_956_740_000, dateOnly: false });
    expect(read('2024-03-08T15:59:00+23:59')).toEqual({ instant: 1_709_827_200_000, dateOnly: false });
    expect(read('2024-03-08T15:59:00-2359')).toEqual({ instant: 1_709_999_880_000, dateOnly: false });
  });

  it('keeps the milliseconds of a fraction of a second, and cuts what is finer (pandas µs and ns)', () => {
    const second = read('2024-03-08T15:59:00Z') as { instant: number };
    expect(read('2024-03-08T15:59:00.7Z')).toEqual({ instant: second.instant + 700, dateOnly: false });
    expect(read('2024-03-08T15:59:00.750Z')).toEqual({ instant: second.instant + 750, dateOnly: false });
    expect(read('2024-03-08T15:59:00.123456789Z')).toEqual({ instant: second.instant + 123, dateOnly: false });
    expect(read('2024-03-08 10:59:00.250')).toEqual({ instant: second.instant + 250, dateOnly: false });
  });

  it('reads an offset of whole hours written alone (as PostgreSQL writes them) and a lowercase z', () => {
    // datetime.fromisoformat(text).timestamp() * 1000 (Python 3.11).
    expect(read('2024-03-08 15:59:00+00')).toEqual({ instant: 1_709_913_540_000, dateOnly: false });
    expect(read('2024-03-08 15:59:00-05')).toEqual({ instant: 1_709_931_540_000, dateOnly: false });
    expect(read('2024-03-08T15:59:00z')).toEqual({ instant: 1_709_913_540_000, dateOnly: false });
    expect(read('2024-03-08 15:59:00+0')).toBe(false);
  });

  it('refuses an offset of 24 hours or more, or of 60 minutes or more (as Temporal does; Python refuses 24 hours too)', () => {
    for (const text of [
      '2024-03-08T15:59:00+24:00',
      '2024-03-08T15:59:00-24:00',
      '2024-03-08T15:59:00+99:00',
      '2024-03-08T15:59:00+05:60',
      '2024-03-08T15:59:00-0599',
    ]) {
      expect(read(text), text).toBe(false);
    }
  });
});
