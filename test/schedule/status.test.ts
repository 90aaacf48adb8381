import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readStatusFile, statusFilePath, StatusPublisher } from '../../src/schedule/status-file.js';
import { describeStatus, livenessOf } from '../../src/schedule/status-format.js';
import { statusHarness } from '../support/schedule/harness.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'schedule-status-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('status snapshot', () => {
  it('shows state, next fires, the last skip with its reason, errors, positions and PnL of the day', async () => {
    // Monday 4 March 2024 is made a holiday in Hong Kong; the strategy crashes on Tuesday.
    const { clock, scheduler, runner, collect } = statusHarness('2024-03-04T01:00:00Z', ['2024-03-04']);
    await scheduler.start();
    await clock.advanceToAsync(Date.parse('2024-03-05T02:00:00Z'));
    runner.last('hk-trend').crash('strategy threw: division by zero');
    await clock.advanceToAsync(Date.parse('2024-03-05T12:00:00Z'));

    const snapshot = await collect();

    expect(snapshot).toMatchObject({
      version: 1,
      generatedAt: '2024-03-05T12:00:00.000Z',
      mode: 'paper',
      healthy: false,
      link: 'up',
      killSwitch: undefined,
    });
    const [trend, data] = snapshot.jobs;
    expect(trend).toMatchObject({
      name: 'hk-trend',
      kind: 'window',
      target: 'sma.ts',
      state: 'halted',
      haltReason: 'crashes',
      haltedUntil: '2024-03-05T16:00:00.000Z',
      next: { at: '2024-03-06T01:30:00.000Z', local: '2024-03-06T09:30:00+08:00', trigger: 'start' },
      lastSkipped: { at: '2024-03-04T01:30:00.000Z', reason: 'non-trading-day', detail: '2024-03-04 is not a trading day of HK' },
      lastError: { at: '2024-03-05T02:00:00.000Z', message: 'strategy threw: division by zero' },
    });
    expect(data).toMatchObject({
      name: 'hk-data',
      kind: 'cron',
      target: 'fetch-data',
      state: 'running',
      lastFired: { local: '2024-03-05T18:00:00+08:00', kind: 'fired' },
      lastSkipped: { local: '2024-03-04T18:00:00+08:00', reason: 'non-trading-day' },
    });
    expect(snapshot.portfolio?.pnlToday).toEqual([{ currency: 'HKD', netAssets: '998960.00', dayStart: '1000000.00', change: '-1040.00' }]);
  });

  it('is healthy with no halts, and reports a failing portfolio provider instead of failing', async () => {
    const failing = { snapshot: async () => Promise.reject(new Error('broker unreachable')) };
    const { collect, link } = statusHarness('2024-03-04T01:00:00Z', [], failing);

    const healthy = await collect();
    link.linkDown();
    const stillHealthy = await collect();

    expect(healthy).toMatchObject({ healthy: true, portfolio: undefined, portfolioError: 'broker unreachable' });
    expect(stillHealthy).toMatchObject({ healthy: true, link: 'down' });
  });

  it('formats the snapshot for people: summary lines and a job table', async () => {
    const { clock, scheduler, supervisor, collect } = statusHarness('2024-03-04T01:00:00Z', ['2024-03-05']);
    await scheduler.start();
    await clock.advanceToAsync(Date.parse('2024-03-05T02:00:00Z'));
    await supervisor.haltForDay('daily loss limit reached');
    const snapshot = await collect();

    const report = describeStatus(snapshot, Date.parse('2024-03-05T02:00:30Z'));

    expect(report.summary).toEqual([
      `scheduler pid ${process.pid}, paper mode, /etc/trader/schedule.yaml`,
      'status as of 2024-03-05T02:00:00.000Z (30s ago)',
      'health: needs attention · link: up',
      'kill switch: ON since 2024-03-05T02:00:00.000Z: daily loss limit reached',
      'positions and PnL as of 2024-03-05T02:00:00.000Z',
    ]);
    expect(report.jobs.headers).toEqual(['JOB', 'STATE', 'NEXT', 'LAST', 'ERROR']);
    expect(report.jobs.rows).toEqual([
      [
        'hk-trend',
        'halted (kill-switch) until 2024-03-05T16:00:00.000Z',
        'start 2024-03-06T09:30:00+08:00 (in 23h 29m)',
        'skipped 2024-03-05T09:30:00+08:00: 2024-03-05 is not a trading day of HK',
        '',
      ],
      [
        'hk-data',
        'halted (kill-switch) until 2024-03-05T16:00:00.000Z',
        'cron 2024-03-05T18:00:00+08:00 (in 7h 59m)',
        'fired 2024-03-04T18:00:00+08:00',
        '',
      ],
    ]);
    expect(report.positions.rows).toEqual([['700.HK', '200', '350.20', '71000.00', '960.00']]);
    expect(describeStatus(snapshot, Date.parse('2024-03-05T02:05:00Z')).summary[1]).toBe(
      'status as of 2024-03-05T02:00:00.000Z (5m ago): stale, the scheduler may not be running',
    );
  });

  it('publishes the snapshot to a status file that another process can read', async () => {
    const { clock, collect } = statusHarness('2024-03-04T01:00:00Z');
    const file = statusFilePath(directory);
    const publisher = new StatusPublisher({ clock, file, collect, intervalMs: 15_000 });

    publisher.start();
    await clock.advanceByAsync(15_000);
    await publisher.stop();

    const read = await readStatusFile(file);
    expect(read.generatedAt).toBe('2024-03-04T01:00:15.000Z');
    expect(read.jobs.map((job) => job.name)).toEqual(['hk-trend', 'hk-data']);
  });

  it('says so when there is no status file', async () => {
    await expect(readStatusFile(path.join(directory, 'none.json'))).rejects.toThrow(
      /no scheduler status at .*none\.json: no `trader schedule` has run with this state dir/,
    );
  });

  it('tells a running scheduler from one that stopped, died or stopped writing', async () => {
    const { collect } = statusHarness('2024-03-04T01:00:00Z');
    const snapshot = await collect();
    const written = Date.parse(snapshot.generatedAt);
    const alive = (): boolean => true;

    expect(livenessOf(snapshot, written + 20_000, alive)).toEqual({ running: true, problem: undefined });
    expect(livenessOf({ ...snapshot, state: 'stopped' }, written + 20_000, alive).problem).toBe(
      'the scheduler stopped at 2024-03-04T01:00:00.000Z',
    );
    expect(livenessOf(snapshot, written + 20_000, () => false).problem).toBe(
      `the scheduler (pid ${process.pid}) is not running: it ended without a graceful stop (killed or crashed)`,
    );
    expect(livenessOf(snapshot, written + 120_000, alive).problem).toBe('stale, the scheduler may not be running (no update for 2m)');
  });

  it('shows a fire that is overdue and when the access token expires', async () => {
    const { scheduler, collect } = statusHarness('2024-03-04T01:00:00Z');
    await scheduler.start();
    const snapshot = { ...(await collect()), tokenExpiresAt: '2024-03-20T00:00:00.000Z' };

    const report = describeStatus(snapshot, Date.parse('2024-03-04T01:30:05Z'));

    expect(report.jobs.rows[0]![2]).toBe('start 2024-03-04T09:30:00+08:00 (due 5s ago)');
    expect(report.summary).toContain('access token expires 2024-03-20T00:00:00.000Z (in 15d 22h); refreshed automatically ahead of that');
  });
});
