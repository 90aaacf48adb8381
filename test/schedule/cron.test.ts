import { describe, expect, it } from 'vitest';
import { cronProblem, nextFire, parseCron, previousFire } from '../../src/schedule/cron.js';
import { formatLocal } from '../../src/schedule/local-time.js';

const NEW_YORK = 'America/New_York';
const HONG_KONG = 'Asia/Hong_Kong';
const utc = (text: string): number => Date.parse(text);
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

function fires(expression: string, fromUtc: string, count: number, zone: string): string[] {
  const cron = parseCron(expression);
  const result: string[] = [];
  let at = utc(fromUtc);
  for (let index = 0; index < count; index++) {
    at = nextFire(cron, at, zone)!;
    result.push(formatLocal(at, zone));
  }
  return result;
}

describe('cron evaluation in a time zone', () => {
  it('fires at 09:30 local on weekdays in Hong Kong (no daylight saving)', () => {
    expect(fires('30 9 * * 1-5', '2024-03-08T00:00:00Z', 3, HONG_KONG)).toEqual([
      '2024-03-08T09:30:00+08:00',
      '2024-03-11T09:30:00+08:00',
      '2024-03-12T09:30:00+08:00',
    ]);
    expect(iso(nextFire(parseCron('30 9 * * 1-5'), utc('2024-03-08T00:00:00Z'), HONG_KONG))).toBe('2024-03-08T01:30:00.000Z');
  });

  it('keeps 09:30 New York local time across the spring-forward weekend (UTC moves by an hour)', () => {
    const cron = parseCron('30 9 * * 1-5');
    const friday = nextFire(cron, utc('2024-03-08T12:00:00Z'), NEW_YORK)!;
    const monday = nextFire(cron, friday, NEW_YORK)!;
    expect(iso(friday)).toBe('2024-03-08T14:30:00.000Z');
    expect(iso(monday)).toBe('2024-03-11T13:30:00.000Z');
    expect(formatLocal(monday, NEW_YORK)).toBe('2024-03-11T09:30:00-04:00');
  });

  it('fires a wall time skipped by spring-forward once, at the instant of the jump', () => {
    expect(fires('30 2 * * *', '2024-03-09T00:00:00Z', 3, NEW_YORK)).toEqual([
      '2024-03-09T02:30:00-05:00',
      '2024-03-10T03:00:00-04:00',
      '2024-03-11T02:30:00-04:00',
    ]);
  });

  it('collapses several skipped times and a matching 03:00 into one fire', () => {
    const times = fires('0,30 2,3 * * *', '2024-03-10T05:00:00Z', 3, NEW_YORK);
    expect(times).toEqual(['2024-03-10T03:00:00-04:00', '2024-03-10T03:30:00-04:00', '2024-03-11T02:00:00-04:00']);
  });

  it('fires a wall time repeated by fall-back once, at its first occurrence', () => {
    const cron = parseCron('30 1 * * *');
    const first = nextFire(cron, utc('2024-11-03T04:00:00Z'), NEW_YORK)!;
    const following = nextFire(cron, first, NEW_YORK)!;
    expect(iso(first)).toBe('2024-11-03T05:30:00.000Z');
    expect(formatLocal(first, NEW_YORK)).toBe('2024-11-03T01:30:00-04:00');
    expect(iso(following)).toBe('2024-11-04T06:30:00.000Z');
  });

  it('does not fire again during the second pass of a repeated hour', () => {
    const cron = parseCron('*/20 1 * * *');
    // 01:10 EST, the second 01:10 of the night.
    const next = nextFire(cron, utc('2024-11-03T06:10:00Z'), NEW_YORK)!;
    expect(formatLocal(next, NEW_YORK)).toBe('2024-11-04T01:00:00-05:00');
  });

  it('finds the previous fire across a fall-back change', () => {
    const cron = parseCron('50 1 * * *');
    expect(iso(previousFire(cron, utc('2024-11-03T06:10:00Z'), NEW_YORK))).toBe('2024-11-03T05:50:00.000Z');
    expect(iso(previousFire(cron, utc('2024-11-03T05:49:59Z'), NEW_YORK))).toBe('2024-11-02T05:50:00.000Z');
  });

  it('finds the previous fire at or before an instant', () => {
    const cron = parseCron('30 9 * * 1-5');
    expect(iso(previousFire(cron, utc('2024-03-11T13:30:00Z'), NEW_YORK))).toBe('2024-03-11T13:30:00.000Z');
    expect(iso(previousFire(cron, utc('2024-03-11T13:29:59Z'), NEW_YORK))).toBe('2024-03-08T14:30:00.000Z');
  });

  it('evaluates per-second expressions (6 fields)', () => {
    const cron = parseCron('*/10 * * * * *');
    const first = nextFire(cron, utc('2024-06-03T04:00:05Z'), HONG_KONG)!;
    expect(iso(first)).toBe('2024-06-03T04:00:10.000Z');
    expect(iso(nextFire(cron, first, HONG_KONG))).toBe('2024-06-03T04:00:20.000Z');
    expect(iso(nextFire(parseCron('* * * * * *'), utc('2024-06-03T04:00:05.400Z'), HONG_KONG))).toBe('2024-06-03T04:00:06.000Z');
  });

  it('accepts names and nicknames that node-cron understands', () => {
    expect(fires('0 10 * * mon', '2024-06-01T00:00:00Z', 1, HONG_KONG)).toEqual(['2024-06-03T10:00:00+08:00']);
    expect(fires('@daily', '2024-06-01T00:00:00Z', 1, HONG_KONG)).toEqual(['2024-06-02T00:00:00+08:00']);
  });

  it('explains why an expression is unusable', () => {
    expect(cronProblem('61 * * * *')).toContain('minute');
    expect(cronProblem('foo')).toBe('expected 5 or 6 fields but got 1');
    expect(cronProblem('0 0 L * *')).toContain('not supported');
    expect(cronProblem('30 9 * * 1-5')).toBeUndefined();
    expect(() => parseCron('61 * * * *')).toThrow('invalid cron expression "61 * * * *"');
  });
});
