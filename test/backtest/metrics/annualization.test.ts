import { describe, expect, it } from 'vitest';
import { compoundAnnualGrowth, periodsPerYear, yearsBetween } from '../../../src/backtest/metrics/annualization.js';
import { DAY_MS } from '../../support/backtest/fixtures.js';

const YEAR_MS = 365.25 * DAY_MS;

describe('periods per year', () => {
  it('uses 252 trading days for daily bars and fixed counts for calendar periods', () => {
    expect(periodsPerYear('day', [0, DAY_MS], 'UTC')).toBe(252);
    expect(periodsPerYear('week', [], 'UTC')).toBe(52);
    expect(periodsPerYear('month', [], 'UTC')).toBe(12);
    expect(periodsPerYear('quarter', [], 'UTC')).toBe(4);
    expect(periodsPerYear('year', [], 'UTC')).toBe(1);
  });

  it('counts intraday bars per trading day from the data', () => {
    // two US sessions of 78 five-minute bars (09:30–16:00 New York = 14:30–21:00 UTC in January)
    const sessionStart = Date.UTC(2024, 0, 2, 14, 30);
    const times = [0, 1].flatMap((day) => Array.from({ length: 78 }, (_, bar) => sessionStart + day * DAY_MS + bar * 300_000));
    // 252 × 156 bars / 2 days = 19,656
    expect(periodsPerYear('5m', times, 'America/New_York')).toBe(19_656);
  });

  it("counts trading days on the market's calendar, where extended hours run past UTC midnight", () => {
    // two US days of hourly bars 04:00–19:00 New York in January (EST): 09:00 UTC to 00:00 UTC of the next
    // day, so the two sessions touch three UTC dates. 252 × 32 bars / 2 days = 4,032 (not 32 / 3 × 252).
    const dayStart = Date.UTC(2024, 0, 2, 9);
    const times = [0, 1].flatMap((day) => Array.from({ length: 16 }, (_, bar) => dayStart + day * DAY_MS + bar * 3_600_000));
    expect(periodsPerYear('60m', times, 'America/New_York')).toBe(4_032);
  });
});

describe('CAGR', () => {
  it('compounds the total return over calendar years between the first and last bar', () => {
    // 100 → 121 over two years: √1.21 − 1 = 0.1
    expect(compoundAnnualGrowth(100, 121, yearsBetween(0, 2 * YEAR_MS))).toBeCloseTo(0.1, 12);
  });

  it('is null for a zero span and −1 for a wiped-out account', () => {
    expect(compoundAnnualGrowth(100, 120, 0)).toBeNull();
    expect(compoundAnnualGrowth(100, -5, 1)).toBe(-1);
  });

  it('is null rather than infinite over a span too short to annualise', () => {
    expect(compoundAnnualGrowth(100, 200, yearsBetween(0, 60_000))).toBeNull();
  });
});
