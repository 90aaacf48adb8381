import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REGULAR_SESSIONS, timeZoneOf } from '../../../src/domain/market-hours.js';
import type { Market } from '../../../src/domain/symbol.js';
import { fromLocal, localDate, startOfLocalDay } from '../../../src/domain/time-zone.js';
import { MarketDays, nextDate } from '../../../src/sim/venue/market-days.js';

const MARKETS: readonly Market[] = ['US', 'HK', 'CN', 'SG'];

// What the days must be: the domain's conversions (checked against Intl and Temporal in test/domain).
function expected(market: Market, time: number): { key: number; start: number; end: number; sessions: number[] } {
  const zone = timeZoneOf(market);
  const date = localDate(time, zone);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const at = (hhmm: number): number => fromLocal({ year, month, day, hour: Math.floor(hhmm / 100), minute: hhmm % 100, second: 0 }, zone);
  return {
    key: year * 10_000 + month * 100 + day,
    start: startOfLocalDay(date, zone),
    end: startOfLocalDay(nextDate(date), zone),
    sessions: REGULAR_SESSIONS[market].flatMap((session) => [at(session.begin), at(session.end)]),
  };
}

describe('market days', () => {
  it('agree with the domain conversions at any instant of 1990–2035', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MARKETS), fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2035, 11, 31) }), (market, time) => {
        const days = new MarketDays(market);
        const want = expected(market, time);
        expect(days.dayKey(time)).toBe(want.key);
        expect(days.dayEnd(time)).toBe(want.end);
        expect([...days.sessionsOf(time)]).toEqual(want.sessions);
        expect(want.start <= time && time < want.end).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('cross New York daylight-saving changes on the right instants', () => {
    const days = new MarketDays('US');
    // 2024-03-10 02:00 EST → 03:00 EDT; 2024-11-03 02:00 EDT → 01:00 EST.
    for (const date of ['2024-03-09', '2024-03-10', '2024-03-11', '2024-11-02', '2024-11-03', '2024-11-04']) {
      const noon = fromLocal(
        { year: 2024, month: Number(date.slice(5, 7)), day: Number(date.slice(8)), hour: 12, minute: 0, second: 0 },
        'America/New_York',
      );
      const want = expected('US', noon);
      expect(days.dayKey(noon)).toBe(want.key);
      expect(days.dayEnd(noon)).toBe(want.end);
      expect([...days.sessionsOf(noon)]).toEqual(want.sessions);
    }
    expect(days.dayEnd(Date.UTC(2024, 2, 10, 12)) - startOfLocalDay('2024-03-10', 'America/New_York')).toBe(23 * 3_600_000);
  });

  it('close day bars at the end of their last session, asked in any order, one after another or again', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MARKETS),
        fc.array(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2035, 11, 31) }), { minLength: 1, maxLength: 12 }),
        (market, times) => {
          const days = new MarketDays(market);
          // Each time asked twice in a row (the second answered from memory), then all again in reverse.
          for (const time of [...times.flatMap((time) => [time, time]), ...[...times].reverse()]) {
            const sessions = expected(market, time).sessions;
            expect(days.dayBarClose(time)).toBe(Math.max(sessions[sessions.length - 1]!, time + 1));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('tells regular sessions from the lunch break and the night', () => {
    const days = new MarketDays('HK');
    const at = (hour: number, minute: number): number =>
      fromLocal({ year: 2024, month: 1, day: 2, hour, minute, second: 0 }, 'Asia/Hong_Kong');
    expect(days.inSession(at(9, 30))).toBe(true);
    expect(days.inSession(at(12, 30))).toBe(false);
    expect(days.inSession(at(15, 59))).toBe(true);
    expect(days.inSession(at(16, 0))).toBe(false);
  });
});
