import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromLocal, localDate, startOfLocalDay, toLocal } from '../../src/domain/time-zone.js';

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
});

describe('wall-clock fields', () => {
  // What toLocal must return: every field read from the formatter's parts.
  const fromParts = (instant: number, zone: string): Record<string, number> => {
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
    const field = (type: string): number => Number(parts.find((part) => part.type === type)?.value ?? 0);
    return {
      year: field('year'),
      month: field('month'),
      day: field('day'),
      hour: field('hour'),
      minute: field('minute'),
      second: field('second'),
    };
  };

  it('are the formatter parts at any instant of years 1 to 12000', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(NEW_YORK, 'Asia/Hong_Kong', 'Asia/Kolkata', 'UTC'),
        fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(12_000, 0, 1) }),
        (zone, instant) => {
          expect(toLocal(instant, zone)).toEqual(fromParts(instant, zone));
        },
      ),
      { numRuns: 500 },
    );
  });
});
