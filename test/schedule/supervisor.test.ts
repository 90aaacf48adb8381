import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { MarketCalendar } from '../../src/schedule/calendar.js';
import { parseScheduleConfig } from '../../src/schedule/config.js';
import type { ScheduleEvent } from '../../src/schedule/events.js';
import { Scheduler } from '../../src/schedule/scheduler.js';
import { Supervisor } from '../../src/schedule/supervisor.js';
import { RecordingNotifier } from '../support/schedule/recording-notifier.js';
import { StubRunner } from '../support/schedule/stub-runner.js';
import { StubTradingDays } from '../support/schedule/trading-days.js';

const CONFIG = `
restart: { maxRestarts: 3, window: 10m, backoff: { initial: 1s, max: 4s, jitter: false } }
jobs:
  - name: hk-trend
    strategy: s.ts
    symbols: [700.HK]
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
    flattenAtStop: true
  - name: us-trend
    strategy: s.ts
    symbols: [AAPL.US]
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
  - name: dca
    strategy: d.ts
    market: HK
    cron: "0 10 * * 1"
`;

const T0 = Date.parse('2024-03-04T02:00:00Z'); // Monday 10:00 in Hong Kong

function setUp(stopTimeoutMs = 5000) {
  const clock = new VirtualClock(T0);
  const jobs = parseScheduleConfig(CONFIG, 'schedule.yaml', { checkFiles: false }).jobs;
  const runner = new StubRunner(() => clock.now());
  const notifier = new RecordingNotifier();
  const supervisor = new Supervisor({ clock, runner, jobs, notifier, stopTimeoutMs });
  return { clock, runner, notifier, supervisor };
}

const day = { market: 'HK', date: '2024-03-04', kind: 'full', source: 'service' } as const;
function opened(job: string, at: number, closesAt: number): ScheduleEvent {
  return { kind: 'window-opened', job, at, local: '', day, closesAt, closeReason: 'stop', resumed: false };
}
function closed(job: string, at: number): ScheduleEvent {
  return { kind: 'window-closed', job, at, local: '', reason: 'stop' };
}
function fired(job: string, at: number): ScheduleEvent {
  return { kind: 'fired', job, at, local: '', day };
}
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('Supervisor', () => {
  it('starts a run when the window opens and stops it, flattening as configured, when it closes', async () => {
    const { clock, runner, supervisor } = setUp();

    supervisor.handle(opened('hk-trend', T0, T0 + 3_600_000));
    const run = runner.last('hk-trend');
    expect(run.context).toMatchObject({ reason: 'window', attempt: 0, closesAt: T0 + 3_600_000 });
    expect(supervisor.status().find((job) => job.name === 'hk-trend')?.state).toBe('running');

    clock.advanceBy(3_600_000);
    supervisor.handle(closed('hk-trend', clock.now()));
    await clock.advanceByAsync(0);

    expect(run.stops).toEqual([{ reason: 'window-closed', flatten: true, cancelOpenOrders: true }]);
    expect(supervisor.status().find((job) => job.name === 'hk-trend')?.state).toBe('idle');
  });

  it('restarts a crashed run with exponential backoff on the clock', async () => {
    const { clock, runner, supervisor } = setUp();
    supervisor.handle(opened('hk-trend', T0, T0 + 3_600_000));

    const restarts: string[] = [];
    for (let crash = 1; crash <= 3; crash++) {
      runner.last('hk-trend').crash(`boom ${crash}`);
      await clock.advanceByAsync(0);
      const status = supervisor.status().find((job) => job.name === 'hk-trend')!;
      expect(status.state).toBe('restarting');
      await clock.advanceToAsync(status.restartAt!);
      const run = runner.last('hk-trend');
      restarts.push(`${iso(run.startedAt)} ${run.context.reason} #${run.context.attempt}`);
    }

    expect(restarts).toEqual([
      '2024-03-04T02:00:01.000Z restart #1',
      '2024-03-04T02:00:03.000Z restart #2',
      '2024-03-04T02:00:07.000Z restart #3',
    ]);
    expect(supervisor.status().find((job) => job.name === 'hk-trend')).toMatchObject({
      state: 'running',
      recentCrashes: 3,
      lastError: { message: 'boom 3' },
    });
  });

  it('caps the backoff at its maximum', async () => {
    const { clock, runner } = setUp();
    const jobs = parseScheduleConfig(CONFIG.replace('maxRestarts: 3', 'maxRestarts: 9'), 's.yaml', { checkFiles: false }).jobs;
    const patient = new Supervisor({ clock, runner, jobs });
    patient.handle(opened('us-trend', T0, T0 + 3_600_000));
    const delays: number[] = [];
    for (let crash = 1; crash <= 5; crash++) {
      const crashedAt = clock.now();
      runner.last('us-trend').crash('boom');
      await clock.advanceByAsync(0);
      const restartAt = patient.status().find((job) => job.name === 'us-trend')!.restartAt!;
      delays.push(restartAt - crashedAt);
      await clock.advanceToAsync(restartAt);
    }
    expect(delays).toEqual([1000, 2000, 4000, 4000, 4000]);
  });

  it('halts a job that crashes more often than allowed, notifies, and runs it again the next market day', async () => {
    const { clock, runner, notifier, supervisor } = setUp();
    supervisor.handle(opened('hk-trend', T0, T0 + 6 * 3_600_000));
    for (let crash = 1; crash <= 4; crash++) {
      runner.last('hk-trend').crash(`boom ${crash}`);
      await clock.advanceByAsync(10_000);
    }

    const status = supervisor.status().find((job) => job.name === 'hk-trend')!;
    expect(status).toMatchObject({ state: 'halted', haltReason: 'crashes', recentCrashes: 4 });
    expect(iso(status.haltedUntil)).toBe('2024-03-04T16:00:00.000Z'); // midnight in Hong Kong
    expect(runner.runsOf('hk-trend')).toHaveLength(4);
    expect(notifier.kinds()).toEqual(['crash', 'crash', 'crash', 'crash', 'halt']);
    expect(notifier.sent[4]!.message).toBe('job hk-trend halted for the rest of the market day after 4 crashes in 10m');

    supervisor.handle(closed('hk-trend', clock.now()));
    await clock.advanceToAsync(Date.parse('2024-03-05T01:30:00Z'));
    supervisor.handle(opened('hk-trend', clock.now(), clock.now() + 3_600_000));
    expect(runner.runsOf('hk-trend')).toHaveLength(5);
    expect(runner.last('hk-trend').context.reason).toBe('window');
  });

  it('forgets crashes older than the restart window', async () => {
    const { clock, runner, supervisor } = setUp();
    supervisor.handle(opened('hk-trend', T0, T0 + 6 * 3_600_000));
    for (let crash = 1; crash <= 6; crash++) {
      runner.last('hk-trend').crash('boom');
      await clock.advanceByAsync(6 * 60_000);
    }
    expect(supervisor.status().find((job) => job.name === 'hk-trend')).toMatchObject({
      state: 'running',
      recentCrashes: 1,
      haltReason: undefined,
    });
    expect(runner.runsOf('hk-trend')).toHaveLength(7);
  });

  it('counts a run that fails to start as a crash', async () => {
    const { clock, runner, supervisor } = setUp();
    runner.failNextStart = 'strategy file has a syntax error';
    supervisor.handle(fired('dca', T0));
    expect(supervisor.status().find((job) => job.name === 'dca')).toMatchObject({
      state: 'restarting',
      lastError: { message: 'strategy file has a syntax error' },
    });
    await clock.advanceByAsync(1000);
    expect(runner.last('dca').context).toMatchObject({ reason: 'restart', attempt: 1 });
  });

  it('cancels a pending restart when the window closes', async () => {
    const { clock, runner, supervisor } = setUp();
    supervisor.handle(opened('hk-trend', T0, T0 + 500));
    runner.last('hk-trend').crash('boom');
    await clock.advanceByAsync(500);
    supervisor.handle(closed('hk-trend', clock.now()));
    await clock.advanceByAsync(10_000);
    expect(runner.runsOf('hk-trend')).toHaveLength(1);
    expect(supervisor.status().find((job) => job.name === 'hk-trend')?.state).toBe('idle');
  });

  it('does not start a cron run while the previous one is still going', () => {
    const { runner, supervisor } = setUp();
    supervisor.handle(fired('dca', T0));
    supervisor.handle(fired('dca', T0 + 1000));
    expect(runner.runsOf('dca')).toHaveLength(1);
  });

  it('kill switch: stops every run cancelling open orders, halts each job until its market midnight, notifies once', async () => {
    const { clock, runner, notifier, supervisor } = setUp();
    supervisor.handle(opened('hk-trend', T0, T0 + 3_600_000));
    supervisor.handle(opened('us-trend', T0, T0 + 3_600_000));

    await supervisor.haltForDay('daily loss limit reached (-20000 HKD)');

    expect(runner.last('hk-trend').stops).toEqual([{ reason: 'kill-switch', flatten: false, cancelOpenOrders: true }]);
    expect(runner.last('us-trend').stops).toEqual([{ reason: 'kill-switch', flatten: false, cancelOpenOrders: true }]);
    const until = Object.fromEntries(supervisor.status().map((job) => [job.name, iso(job.haltedUntil)]));
    // T0 is Monday 10:00 in Hong Kong but still Sunday 21:00 in New York.
    expect(until).toEqual({
      'hk-trend': '2024-03-04T16:00:00.000Z',
      'us-trend': '2024-03-04T05:00:00.000Z',
      dca: '2024-03-04T16:00:00.000Z',
    });
    expect(notifier.kinds()).toEqual(['halt']);
    expect(supervisor.killSwitch).toEqual({ reason: 'daily loss limit reached (-20000 HKD)', at: T0 });

    supervisor.handle(fired('dca', T0 + 60_000));
    expect(runner.runsOf('dca')).toHaveLength(0);
    await clock.advanceToAsync(T0 + 3_600_000);
    supervisor.handle(closed('hk-trend', clock.now()));
    supervisor.handle(closed('us-trend', clock.now()));
    await clock.advanceToAsync(Date.parse('2024-03-04T05:00:00Z'));
    expect(supervisor.status().find((job) => job.name === 'us-trend')?.state).toBe('idle');
    expect(supervisor.status().find((job) => job.name === 'hk-trend')?.state).toBe('halted');
    expect(supervisor.killSwitch).toBeDefined();
    await clock.advanceToAsync(Date.parse('2024-03-04T16:00:00Z'));
    expect(supervisor.killSwitch).toBeUndefined();
  });

  it('resumes a window still open when a halt ends', async () => {
    const { clock, runner, supervisor } = setUp();
    supervisor.handle(opened('hk-trend', T0, Date.parse('2024-03-05T08:00:00Z')));
    await supervisor.haltForDay('drawdown');
    await clock.advanceToAsync(Date.parse('2024-03-04T16:00:00Z'));
    expect(runner.runsOf('hk-trend')).toHaveLength(2);
    expect(runner.last('hk-trend').context.reason).toBe('resume');
  });

  it('aborts a run that does not stop in time, and gives up on it if it ignores the abort too', async () => {
    const { clock, runner, supervisor } = setUp(5000);
    supervisor.handle(opened('hk-trend', T0, T0 + 1000));
    const run = runner.last('hk-trend');
    run.stopsPromptly = false;

    await clock.advanceToAsync(T0 + 1000);
    supervisor.handle(closed('hk-trend', T0 + 1000));
    await clock.advanceToAsync(T0 + 5999);
    expect(run.context.signal.aborted).toBe(false);
    expect(supervisor.status()[0]!.state).toBe('stopping');
    await clock.advanceToAsync(T0 + 6000);
    expect(run.context.signal.aborted).toBe(true);
    await clock.advanceToAsync(T0 + 11_000);

    expect(supervisor.status()[0]).toMatchObject({
      state: 'idle',
      lastError: { message: 'run did not end within 10s of the stop request; abandoned' },
    });
  });

  it('sends fills and denials as notifications and keeps reported errors as the last error', () => {
    const { runner, notifier, supervisor } = setUp();
    supervisor.handle(opened('hk-trend', T0, T0 + 1000));
    const run = runner.last('hk-trend');

    run.events.next({ kind: 'fill', symbol: '700.HK', side: 'Buy', quantity: '100', price: '350.2', orderId: 'o-1' });
    run.events.next({ kind: 'denial', code: 'EXCEEDS_BUY_POWER', message: 'needs 35020 HKD, has 1000 HKD', symbol: '700.HK' });
    run.events.next({ kind: 'error', message: 'quote feed lagging' });

    expect(notifier.sent.map((notification) => notification.message)).toEqual([
      'hk-trend: Buy 100 700.HK @ 350.2',
      'hk-trend: order denied (EXCEEDS_BUY_POWER): needs 35020 HKD, has 1000 HKD',
    ]);
    expect(supervisor.status()[0]?.lastError?.message).toBe('quote feed lagging');
  });

  it('shuts down by stopping every run without touching orders', async () => {
    const { runner, supervisor } = setUp();
    supervisor.handle(opened('hk-trend', T0, T0 + 1000));
    supervisor.handle(fired('dca', T0));

    await supervisor.shutdown();

    expect(runner.runs.map((run) => run.stops)).toEqual([
      [{ reason: 'shutdown', flatten: false, cancelOpenOrders: false }],
      [{ reason: 'shutdown', flatten: false, cancelOpenOrders: false }],
    ]);
  });

  it('with the scheduler, resumes the run of a window that is open at startup', async () => {
    const clock = new VirtualClock(Date.parse('2024-03-04T03:00:00Z'));
    const jobs = parseScheduleConfig(CONFIG, 'schedule.yaml', { checkFiles: false }).jobs;
    const runner = new StubRunner(() => clock.now());
    const supervisor = new Supervisor({ clock, runner, jobs });
    const scheduler = new Scheduler({ clock, jobs, calendar: new MarketCalendar({ clock, source: new StubTradingDays() }) });
    supervisor.attach(scheduler.events);

    await scheduler.start();
    await clock.advanceToAsync(Date.parse('2024-03-04T08:00:00Z'));
    scheduler.stop();

    const run = runner.last('hk-trend');
    expect(run.context).toMatchObject({ reason: 'resume', closesAt: Date.parse('2024-03-04T07:55:00Z') });
    expect(run.stops).toEqual([{ reason: 'window-closed', flatten: true, cancelOpenOrders: true }]);
  });
});
