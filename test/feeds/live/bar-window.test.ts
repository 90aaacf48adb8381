import { describe, expect, it } from 'vitest';
import { fromLocal } from '../../../src/domain/time-zone.js';
import { barWindow } from '../../../src/feeds/live/bar-window.js';

const hk = (day: number, hour: number, minute: number, second = 0): number =>
  fromLocal({ year: 2024, month: 1, day, hour, minute, second }, 'Asia/Hong_Kong');
const ny = (month: number, day: number, hour: number, minute: number): number =>
  fromLocal({ year: 2024, month, day, hour, minute, second: 0 }, 'America/New_York');

describe('bar windows', () => {
  it('counts intraday bars from the start of the session they fall in, clipped at its end', () => {
    expect(barWindow(hk(2, 11, 45), '60m', 'HK')).toEqual({ start: hk(2, 11, 30), end: hk(2, 12, 0) });
    expect(barWindow(hk(2, 13, 10), '60m', 'HK')).toEqual({ start: hk(2, 13, 0), end: hk(2, 14, 0) });
    expect(barWindow(ny(3, 11, 9, 34), '5m', 'US')).toEqual({ start: ny(3, 11, 9, 30), end: ny(3, 11, 9, 35) });
    expect(barWindow(ny(3, 11, 10, 59), '60m', 'US')).toEqual({ start: ny(3, 11, 10, 30), end: ny(3, 11, 11, 30) });
  });

  it('counts from local midnight outside the regular sessions', () => {
    expect(barWindow(ny(3, 11, 7, 3), '15m', 'US')).toEqual({ start: ny(3, 11, 7, 0), end: ny(3, 11, 7, 15) });
  });

  it('keeps bars outside the sessions within the gap between them: none overlaps a session bar', () => {
    // Pre-market: the 9:00 hour bar ends at the 9:30 open.
    expect(barWindow(ny(3, 11, 9, 10), '60m', 'US')).toEqual({ start: ny(3, 11, 9, 0), end: ny(3, 11, 9, 30) });
    // Post-market: a 45-minute bar from midnight would start at 15:45; it starts at the 16:00 close.
    expect(barWindow(ny(3, 11, 16, 10), '45m', 'US')).toEqual({ start: ny(3, 11, 16, 0), end: ny(3, 11, 16, 30) });
    // HK lunch break: a 120-minute bar from 12:00 would run into the 13:00 session.
    expect(barWindow(hk(2, 12, 30), '120m', 'HK')).toEqual({ start: hk(2, 12, 0), end: hk(2, 13, 0) });
    // Every minute of a day lies in exactly one window, and windows of consecutive minutes never overlap.
    for (const period of ['60m', '45m', '120m'] as const) {
      let previous = barWindow(ny(3, 11, 0, 0), period, 'US');
      for (let minute = 1; minute < 24 * 60; minute += 1) {
        const window = barWindow(ny(3, 11, 0, 0) + minute * 60_000, period, 'US');
        expect(window.start).toBeLessThanOrEqual(ny(3, 11, 0, 0) + minute * 60_000);
        if (window.start !== previous.start) expect(window.start).toBeGreaterThanOrEqual(previous.end);
        previous = window;
      }
    }
  });

  it('stamps day bars at local midnight and ends them at the regular close, across daylight saving', () => {
    expect(barWindow(hk(2, 10, 0), 'day', 'HK')).toEqual({ start: hk(2, 0, 0), end: hk(2, 16, 0) });
    expect(barWindow(ny(3, 11, 10, 0), 'day', 'US')).toEqual({ start: ny(3, 11, 0, 0), end: ny(3, 11, 16, 0) });
    expect(new Date(barWindow(ny(3, 11, 10, 0), 'day', 'US').start).toISOString()).toBe('2024-03-11T04:00:00.000Z');
  });

  it('keeps a tick after the regular close inside its day bar', () => {
    expect(barWindow(hk(2, 16, 8), 'day', 'HK')).toEqual({ start: hk(2, 0, 0), end: hk(2, 16, 9) });
  });

  it('starts weeks on Monday, months, quarters and years on their first day', () => {
    expect(barWindow(hk(4, 10, 0), 'week', 'HK')).toEqual({ start: hk(1, 0, 0), end: hk(8, 0, 0) });
    expect(barWindow(ny(12, 31, 10, 0), 'month', 'US')).toEqual({
      start: ny(12, 1, 0, 0),
      end: fromLocal({ year: 2025, month: 1, day: 1, hour: 0, minute: 0, second: 0 }, 'America/New_York'),
    });
    expect(barWindow(ny(5, 15, 10, 0), 'quarter', 'US')).toEqual({ start: ny(4, 1, 0, 0), end: ny(7, 1, 0, 0) });
    expect(barWindow(hk(20, 10, 0), 'year', 'HK').start).toBe(hk(1, 0, 0));
  });
});
