import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { MarketCalendar } from '../../src/schedule/calendar.js';
import { parseScheduleConfig } from '../../src/schedule/config.js';
import type { ScheduleEvent } from '../../src/schedule/events.js';
import { Scheduler } from '../../src/schedule/scheduler.js';
import { StubTradingDays } from '../support/schedule/trading-days.js';

// The week of the 2024 US spring-forward change (Sunday 10 March): Wednesday 6 March is made a holiday and
// Friday 8 March a half day (US half days close at 13:00).
const HOLIDAY = '2024-03-06';
const HALF_DAY = '2024-03-08';

const CONFIG = `
timezone: America/New_York
jobs:
  - name: us-trend
    strategy: strategies/sma.ts
    symbols: [AAPL.US]
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
  - name: us-data
    task: fetch-data
    symbols: [AAPL.US]
    cron: "0 18 * * 1-5"
`;

let scheduler: Scheduler | undefined;
afterEach(() => scheduler?.stop());

function setUp(startUtc: string, yaml = CONFIG, source = new StubTradingDays([HOLIDAY], [HALF_DAY])) {
  const clock = new VirtualClock(Date.parse(startUtc));
  const config = parseScheduleConfig(yaml, 'schedule.yaml', { checkFiles: false });
  const calendar = new MarketCalendar({ clock, source });
  scheduler = new Scheduler({ clock, calendar, jobs: config.jobs });
  const events: ScheduleEvent[] = [];
  scheduler.events.subscribe((event) => events.push(event));
  return { clock, scheduler, events, source };
}

function describeEvent(event: ScheduleEvent): string {
  const at = new Date(event.at).toISOString().slice(0, 16);
  const extra =
    event.kind === 'skipped'
      ? ` ${event.reason}`
      : event.kind === 'window-closed'
        ? ` ${event.reason}`
        : event.kind === 'window-opened' && event.resumed
          ? ' resumed'
          : '';
  return `${at}Z ${event.local.slice(11, 16)} ${event.job} ${event.kind}${extra}`;
}

describe('Scheduler over a simulated week', () => {
  it('fires on trading days, skips the holiday, closes the half day early and follows the DST change', async () => {
    const { clock, scheduler, events } = setUp('2024-03-04T00:00:00Z');
    await scheduler.start();

    await clock.advanceToAsync(Date.parse('2024-03-12T00:00:00Z'));

    expect(events.map(describeEvent)).toEqual([
      '2024-03-04T14:30Z 09:30 us-trend window-opened',
      '2024-03-04T20:55Z 15:55 us-trend window-closed stop',
      '2024-03-04T23:00Z 18:00 us-data fired',
      '2024-03-05T14:30Z 09:30 us-trend window-opened',
      '2024-03-05T20:55Z 15:55 us-trend window-closed stop',
      '2024-03-05T23:00Z 18:00 us-data fired',
      '2024-03-06T14:30Z 09:30 us-trend skipped non-trading-day',
      '2024-03-06T23:00Z 18:00 us-data skipped non-trading-day',
      '2024-03-07T14:30Z 09:30 us-trend window-opened',
      '2024-03-07T20:55Z 15:55 us-trend window-closed stop',
      '2024-03-07T23:00Z 18:00 us-data fired',
      '2024-03-08T14:30Z 09:30 us-trend window-opened',
      '2024-03-08T18:00Z 13:00 us-trend window-closed half-day-close',
      '2024-03-08T23:00Z 18:00 us-data fired',
      // After the change New York is UTC-4: the same local times are an hour earlier in UTC.
      '2024-03-11T13:30Z 09:30 us-trend window-opened',
      '2024-03-11T19:55Z 15:55 us-trend window-closed stop',
      '2024-03-11T22:00Z 18:00 us-data fired',
    ]);
    const skip = events.find((event) => event.kind === 'skipped' && event.job === 'us-trend');
    expect(skip).toMatchObject({ detail: '2024-03-06 is not a trading day of US', day: { kind: 'closed', source: 'service' } });
  });

  it('reports the next fire and the last skip of each job for status', async () => {
    const { clock, scheduler } = setUp('2024-03-06T12:00:00Z');
    await scheduler.start();

    await clock.advanceToAsync(Date.parse('2024-03-06T15:00:00Z'));

    const trend = scheduler.schedule('us-trend')!;
    expect(trend.next).toEqual({ at: Date.parse('2024-03-07T14:30:00Z'), trigger: 'start' });
    expect(trend.window.open).toBe(false);
    expect(trend.lastSkipped?.reason).toBe('non-trading-day');
    await clock.advanceToAsync(Date.parse('2024-03-07T15:00:00Z'));
    expect(scheduler.schedule('us-trend')!.next).toEqual({ at: Date.parse('2024-03-07T20:55:00Z'), trigger: 'stop' });
  });

  it('resumes a window that is open when the scheduler starts, closing it at the planned stop', async () => {
    const { clock, scheduler, events } = setUp('2024-03-11T15:00:00Z');

    await scheduler.start();
    await clock.advanceToAsync(Date.parse('2024-03-11T20:00:00Z'));

    expect(events.map(describeEvent).slice(0, 2)).toEqual([
      '2024-03-11T13:30Z 09:30 us-trend window-opened resumed',
      '2024-03-11T19:55Z 15:55 us-trend window-closed stop',
    ]);
  });

  it('does not resume a window after its half-day close, nor on a holiday, nor after the stop', async () => {
    for (const start of ['2024-03-08T18:30:00Z', '2024-03-06T15:00:00Z', '2024-03-07T21:00:00Z']) {
      const { scheduler, events } = setUp(start);
      await scheduler.start();
      expect(events, start).toEqual([]);
      scheduler.stop();
    }
  });

  it('skips a window start that comes after the close of a half day', async () => {
    const yaml = `
jobs:
  - name: late
    strategy: s.ts
    market: US
    start: "30 14 * * 1-5"
    stop: "55 15 * * 1-5"
`;
    const { clock, scheduler, events } = setUp('2024-03-08T00:00:00Z', yaml);
    await scheduler.start();

    await clock.advanceToAsync(Date.parse('2024-03-09T00:00:00Z'));

    expect(events.map(describeEvent)).toEqual(['2024-03-08T19:30Z 14:30 late skipped after-half-day-close']);
  });

  it('fires a per-second cron every second of a trading day', async () => {
    const yaml = `
jobs:
  - name: tick
    strategy: s.ts
    symbols: [700.HK]
    cron: "* * * * * *"
`;
    const { clock, scheduler, events } = setUp('2024-03-07T02:00:00.500Z', yaml);
    await scheduler.start();

    await clock.advanceToAsync(Date.parse('2024-03-07T02:00:03.500Z'));

    expect(events.map((event) => `${event.kind} ${event.local}`)).toEqual([
      'fired 2024-03-07T10:00:01+08:00',
      'fired 2024-03-07T10:00:02+08:00',
      'fired 2024-03-07T10:00:03+08:00',
    ]);
  });

  it('fires a wall time repeated by the fall-back change once (here: skipped once, it is a Sunday)', async () => {
    const yaml = `
jobs:
  - name: night
    task: fetch-data
    symbols: [AAPL.US]
    cron: "30 1 * * *"
`;
    const { clock, scheduler, events } = setUp('2024-11-02T00:00:00Z', yaml);
    await scheduler.start();

    await clock.advanceToAsync(Date.parse('2024-11-05T00:00:00Z'));

    expect(events.map(describeEvent)).toEqual([
      '2024-11-02T05:30Z 01:30 night skipped non-trading-day',
      '2024-11-03T05:30Z 01:30 night skipped non-trading-day',
      '2024-11-04T06:30Z 01:30 night fired',
    ]);
  });

  it('falls back to weekdays when the trading-days service is down, and says so', async () => {
    const source = new StubTradingDays([HOLIDAY], [HALF_DAY]);
    source.failing = true;
    const { clock, scheduler, events } = setUp('2024-03-06T12:00:00Z', CONFIG, source);
    await scheduler.start();

    await clock.advanceToAsync(Date.parse('2024-03-06T15:00:00Z'));

    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'window-opened', job: 'us-trend', day: { kind: 'full', source: 'fallback' } });
  });

  it('fires a job with days: all on holidays and weekends too, without asking the calendar', async () => {
    const yaml = `
jobs:
  - name: always
    task: fetch-data
    symbols: [AAPL.US]
    cron: "0 18 * * *"
    days: all
`;
    const { clock, scheduler, events, source } = setUp('2024-03-06T12:00:00Z', yaml);
    await scheduler.start();

    await clock.advanceToAsync(Date.parse('2024-03-10T12:00:00Z'));

    expect(events.map(describeEvent)).toEqual([
      '2024-03-06T23:00Z 18:00 always fired',
      '2024-03-07T23:00Z 18:00 always fired',
      '2024-03-08T23:00Z 18:00 always fired',
      '2024-03-09T23:00Z 18:00 always fired',
    ]);
    expect(events[0]).toMatchObject({ day: { date: '2024-03-06', source: 'unchecked' } });
    expect(source.calls).toEqual([]);
  });
});
