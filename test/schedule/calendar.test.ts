import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { QuoteClient } from '../../src/openapi/socket/quote-client.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { createLogger, silentLogger } from '../../src/log/logger.js';
import { MarketCalendar, type TradingDaysSource } from '../../src/schedule/calendar.js';
import { CalendarFileStore } from '../../src/schedule/calendar-store.js';
import { StubTradingDays } from '../support/schedule/trading-days.js';

const HOUR = 3_600_000;
let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'calendar-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('MarketCalendar', () => {
  it('classifies full, half and closed days from the service, asking once per market-month', async () => {
    const source = new StubTradingDays(['2024-12-25'], ['2024-12-24']);
    const calendar = new MarketCalendar({ clock: new VirtualClock(Date.parse('2024-12-01T00:00:00Z')), source });

    const kinds = await Promise.all(['2024-12-23', '2024-12-24', '2024-12-25', '2024-12-28'].map((date) => calendar.day('US', date)));

    expect(kinds.map((day) => day.kind)).toEqual(['full', 'half', 'closed', 'closed']);
    expect(source.calls).toEqual([{ market: 'US', from: '2024-12-01', to: '2024-12-31' }]);
  });

  it('gives the half-day close in the market zone (13:00 New York, 12:00 Hong Kong)', () => {
    const calendar = new MarketCalendar({ clock: new VirtualClock() });
    expect(new Date(calendar.halfDayClose('US', '2024-11-29')).toISOString()).toBe('2024-11-29T18:00:00.000Z');
    expect(new Date(calendar.halfDayClose('HK', '2024-12-24')).toISOString()).toBe('2024-12-24T04:00:00.000Z');
  });

  it('persists fetched months to a file so a restart does not ask the service again', async () => {
    const file = path.join(directory, 'trading-days.json');
    const clock = new VirtualClock(Date.parse('2024-12-01T00:00:00Z'));
    const first = new StubTradingDays(['2024-12-25']);
    await new MarketCalendar({ clock, source: first, store: new CalendarFileStore(file, silentLogger) }).day('HK', '2024-12-25');

    const second = new StubTradingDays();
    const restarted = new MarketCalendar({ clock, source: second, store: new CalendarFileStore(file, silentLogger) });

    expect((await restarted.day('HK', '2024-12-25')).kind).toBe('closed');
    expect(second.calls).toEqual([]);
  });

  it('asks the service again once the cached month is older than the TTL', async () => {
    const clock = new VirtualClock(Date.parse('2024-12-01T00:00:00Z'));
    const source = new StubTradingDays();
    const calendar = new MarketCalendar({ clock, source, ttlMs: 12 * HOUR });
    await calendar.day('HK', '2024-12-02');

    clock.advanceBy(11 * HOUR);
    await calendar.day('HK', '2024-12-02');
    clock.advanceBy(2 * HOUR);
    await calendar.day('HK', '2024-12-02');

    expect(source.calls).toHaveLength(2);
  });

  it('falls back to weekdays with a warning while the service fails, and retries after the retry delay', async () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
    const clock = new VirtualClock(Date.parse('2024-12-01T00:00:00Z'));
    const source = new StubTradingDays(['2024-12-25']);
    source.failing = true;
    const calendar = new MarketCalendar({ clock, source, logger, retryMs: 10 * 60_000 });

    const christmas = await calendar.day('US', '2024-12-25');
    const saturday = await calendar.day('US', '2024-12-28');
    source.failing = false;
    const stillFallback = await calendar.day('US', '2024-12-25');
    clock.advanceBy(10 * 60_000);
    const recovered = await calendar.day('US', '2024-12-25');

    expect(christmas).toEqual({ market: 'US', date: '2024-12-25', kind: 'full', source: 'fallback' });
    expect(saturday.kind).toBe('closed');
    expect(stillFallback.source).toBe('fallback');
    expect(recovered).toEqual({ market: 'US', date: '2024-12-25', kind: 'closed', source: 'service' });
    expect(source.calls).toHaveLength(2);
    expect(lines.join('')).toContain('trading days unavailable from the service; using weekdays (Mon-Fri) as trading days');
  });

  it('keeps using an expired cached month rather than weekdays when a refresh fails', async () => {
    const clock = new VirtualClock(Date.parse('2024-12-01T00:00:00Z'));
    const source = new StubTradingDays(['2024-12-25']);
    const calendar = new MarketCalendar({ clock, source, ttlMs: HOUR });
    await calendar.day('US', '2024-12-25');
    source.failing = true;
    clock.advanceBy(2 * HOUR);

    expect(await calendar.day('US', '2024-12-25')).toMatchObject({ kind: 'closed', source: 'service' });
  });

  it('takes the quote client (socket cmd 9) as its source as it is', () => {
    expectTypeOf<QuoteClient>().toExtend<TradingDaysSource>();
  });

  it('treats an unreadable cache file as empty', async () => {
    const file = path.join(directory, 'broken.json');
    writeFileSync(file, '{ not json');
    const source = new StubTradingDays();
    const calendar = new MarketCalendar({
      clock: new VirtualClock(Date.parse('2024-12-01T00:00:00Z')),
      source,
      store: new CalendarFileStore(file, silentLogger),
    });

    expect((await calendar.day('SG', '2024-12-02')).source).toBe('service');
    expect(source.calls).toHaveLength(1);
  });
});
