// What people do to a running schedule (dashboard, chat): pause and resume a job, run one now, reset the kill switch.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { parseScheduleConfig } from '../../src/schedule/config.js';
import type { ScheduleEvent } from '../../src/schedule/events.js';
import { Supervisor } from '../../src/schedule/supervisor.js';
import { RecordingNotifier } from '../support/schedule/recording-notifier.js';
import { StubRunner } from '../support/schedule/stub-runner.js';

const CONFIG = `
jobs:
  - name: hk-trend
    strategy: s.ts
    symbols: [700.HK]
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
  - name: dca
    strategy: d.ts
    market: HK
    cron: "0 10 * * 1"
`;

const T0 = Date.parse('2024-03-04T02:00:00Z'); // Monday 10:00 in Hong Kong
const day = { market: 'HK', date: '2024-03-04', kind: 'full', source: 'service' } as const;
const opened = (job: string): ScheduleEvent => ({
  kind: 'window-opened',
  job,
  at: T0,
  local: '',
  day,
  closesAt: T0 + 3_600_000,
  closeReason: 'stop',
  resumed: false,
});
const fired = (job: string): ScheduleEvent => ({ kind: 'fired', job, at: T0, local: '', day });

function setUp() {
  const clock = new VirtualClock(T0);
  const jobs = parseScheduleConfig(CONFIG, 'schedule.yaml', { checkFiles: false }).jobs;
  const runner = new StubRunner(() => clock.now());
  const notifier = new RecordingNotifier();
  const supervisor = new Supervisor({ clock, runner, jobs, notifier, stopTimeoutMs: 5000 });
  const state = (name: string) => supervisor.status().find((status) => status.name === name)!;
  return { clock, runner, notifier, supervisor, state };
}

describe('Supervisor controls', () => {
  it('pausing stops the run cancelling its orders, keeps fires from starting runs, and resuming inside the window runs again', async () => {
    const { runner, supervisor, state } = setUp();
    supervisor.handle(opened('hk-trend'));

    const paused = await supervisor.pause('hk-trend');

    expect(paused).toEqual({ done: true, message: 'job hk-trend paused: its run stopped and its open orders were cancelled' });
    expect(runner.last('hk-trend').stops).toEqual([{ reason: 'paused', flatten: false, cancelOpenOrders: true }]);
    expect(state('hk-trend')).toMatchObject({ state: 'paused', paused: true, lastResult: { outcome: 'stopped' } });
    supervisor.handle(opened('hk-trend'));
    expect(runner.runsOf('hk-trend')).toHaveLength(1);
    expect(await supervisor.pause('hk-trend')).toMatchObject({ done: false, message: 'job hk-trend is already paused' });

    expect(supervisor.resume('hk-trend')).toEqual({ done: true, message: 'job hk-trend resumed: its window is open, so it runs now' });
    expect(runner.runsOf('hk-trend')).toHaveLength(2);
    expect(runner.last('hk-trend').context.reason).toBe('resume');
    expect(state('hk-trend')).toMatchObject({ state: 'running', paused: false });
    expect(supervisor.resume('hk-trend')).toMatchObject({ done: false, message: 'job hk-trend is not paused' });
  });

  it('runs a cron job now, but not a window job outside its window, a paused, halted or running job, or an unknown one', async () => {
    const { runner, supervisor, state } = setUp();

    expect(supervisor.runNow('dca')).toEqual({ done: true, message: 'job dca started' });
    expect(runner.last('dca').context.reason).toBe('manual');
    expect(supervisor.runNow('dca')).toEqual({ done: false, message: 'job dca is already running' });
    runner.last('dca').complete();
    await Promise.resolve();
    await Promise.resolve();
    expect(state('dca')).toMatchObject({ state: 'idle', lastResult: { outcome: 'completed', at: T0 } });

    expect(supervisor.runNow('hk-trend')).toMatchObject({ done: false });
    expect(supervisor.runNow('hk-trend').message).toContain('window is closed');
    await supervisor.pause('dca');
    expect(supervisor.runNow('dca')).toMatchObject({ done: false, message: 'job dca is paused: resume it first' });
    expect(supervisor.runNow('nope')).toEqual({ done: false, message: 'no job named nope (jobs: hk-trend, dca)' });
    await supervisor.haltForDay('drawdown');
    expect(supervisor.runNow('hk-trend').message).toMatch(/^job hk-trend is halted \(kill-switch\) until /);
  });

  it('resetting the kill switch lifts its halts, restarts open windows, notifies recovery, and is refused when not tripped', async () => {
    const { runner, notifier, supervisor, state } = setUp();
    expect(supervisor.resetKillSwitch()).toEqual({ done: false, message: 'the kill switch is not tripped' });
    supervisor.handle(opened('hk-trend'));
    supervisor.handle(fired('dca'));
    await supervisor.haltForDay('daily loss');
    expect(supervisor.killSwitch).toMatchObject({ reason: 'daily loss' });

    const reset = supervisor.resetKillSwitch();

    expect(reset).toEqual({ done: true, message: 'kill switch reset: hk-trend, dca may trade again' });
    expect(supervisor.killSwitch).toBeUndefined();
    expect(runner.runsOf('hk-trend')).toHaveLength(2);
    expect(runner.runsOf('dca')).toHaveLength(1);
    expect(state('hk-trend').state).toBe('running');
    expect(state('dca').state).toBe('idle');
    expect(notifier.kinds()).toEqual(['halt', 'recovered']);
  });

  it('pausing a job that waits for its restart after a crash cancels the restart', async () => {
    const { clock, runner, supervisor, state } = setUp();
    supervisor.handle(fired('dca'));
    runner.last('dca').crash('boom');
    await clock.advanceByAsync(0);
    expect(state('dca')).toMatchObject({ state: 'restarting', lastResult: { outcome: 'crashed', message: 'boom' } });

    await supervisor.pause('dca');
    await clock.advanceByAsync(10 * 60_000);

    expect(runner.runsOf('dca')).toHaveLength(1);
    expect(state('dca')).toMatchObject({ state: 'paused', restartAt: undefined });
  });
});
