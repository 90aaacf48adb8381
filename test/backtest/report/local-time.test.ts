import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zoneOffsetAt } from '../../../src/domain/time-zone.js';
import { formatCount, formatLocal, formatMoney, formatPercent, formatRatio } from '../../../src/backtest/report/format.js';
import { localTime } from '../../../src/backtest/report/local-time.js';

describe('market-local times', () => {
  it('writes an instant as the market wall time with its offset', () => {
    const hongKong = localTime('Asia/Hong_Kong');
    const midnight = Date.UTC(2024, 0, 1, 16);
    expect(hongKong.iso(midnight)).toBe('2024-01-02T00:00:00+08:00');
    expect(formatLocal(hongKong.iso(midnight), false)).toBe('2024-01-02');
    expect(hongKong.chartSeconds(midnight)).toBe(Date.UTC(2024, 0, 2) / 1000);
  });

  it('follows a daylight-saving change within the day it happens', () => {
    // New York springs forward at 02:00 EST = 07:00 UTC on 2024-03-10
    const newYork = localTime('America/New_York');
    expect(newYork.iso(Date.UTC(2024, 2, 10, 6, 59))).toBe('2024-03-10T01:59:00-05:00');
    expect(newYork.iso(Date.UTC(2024, 2, 10, 7, 0))).toBe('2024-03-10T03:00:00-04:00');
    expect(formatLocal(newYork.iso(Date.UTC(2024, 2, 11, 13, 30)), true)).toBe('2024-03-11 09:30');
  });

  it('writes what Date and the zone offset write, across zones, centuries and half-hour offsets', () => {
    const zones = ['Asia/Hong_Kong', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Apia', 'UTC', 'Asia/Kathmandu'];
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) }), (zone, instant) => {
        const offset = zoneOffsetAt(instant, zone);
        const minutes = Math.round(offset / 60_000);
        const sign = minutes < 0 ? '-' : '+';
        const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
        const reference = `${new Date(instant + offset).toISOString().slice(0, 19)}${sign}${hours}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
        expect(localTime(zone).iso(instant)).toBe(reference);
        // Again: asking twice gives the same text.
        expect(localTime(zone).iso(instant)).toBe(reference);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('number formats', () => {
  it('groups money with two places and signs percentages on request', () => {
    expect(formatMoney(1234567.891)).toBe('1,234,567.89');
    expect(formatMoney(-52)).toBe('-52.00');
    expect(formatPercent(0.01978, true)).toBe('+1.98%');
    expect(formatPercent(-0.2405)).toBe('-24.05%');
    expect(formatPercent(6.09e36, true)).toBe('+6.09e+38%');
    expect(formatRatio(1.4949)).toBe('1.49');
    expect(formatCount(5105)).toBe('5,105');
    expect(formatCount(55.52)).toBe('55.5');
  });

  it('writes n/a for figures that are undefined for the run', () => {
    expect([formatMoney(null), formatPercent(null), formatRatio(null), formatCount(null), formatLocal(null, false)]).toEqual([
      'n/a',
      'n/a',
      'n/a',
      'n/a',
      'n/a',
    ]);
  });
});
