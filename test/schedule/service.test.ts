import { readFileSync, writeFileSync } from 'node:fs';
import { Subject } from 'rxjs';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Price } from '../../src/domain/price.js';
import type { ConnectionState } from '../../src/openapi/socket/connection-state.js';
import { statusFilePath } from '../../src/schedule/status-file.js';
import type { StatusSnapshot } from '../../src/schedule/status.js';
import { startServiceHarness, type ServiceHarness } from '../support/schedule/service-harness.js';
import { balance, position } from '../support/schedule/stub-account.js';
import { waitFor } from '../support/schedule/wait.js';

let harness: ServiceHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const US_WEEK = `
timezone: America/New_York
accountCheck: 1h
restart: { maxRestarts: 1, backoff: { initial: 1s, max: 1s, jitter: false } }
jobs:
  - name: us-trend
    strategy: strategies/sma.ts
    symbols: [AAPL.US]
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
    flattenAtStop: true
  - name: us-dca
    strategy: strategies/dca.ts
    symbols: [AAPL.US]
    cron: "0 10 * * 1-5"
`;

const HK_DAY = `
risk: { dailyLossLimit: 20000 }
accountCheck: 10m
stopTimeout: 5s
outageLimit: 1m
restart: { maxRestarts: 1, backoff: { initial: 1s, max: 1s, jitter: false } }
jobs:
  - name: hk-trend
    strategy: strategies/sma.ts
    symbols: [700.HK]
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
  - name: hk-scalp
    strategy: strategies/scalp.ts
    symbols: [9988.HK]
    start: "0 10 * * 1-5"
    stop: "0 15 * * 1-5"
`;

const notified = (h: ServiceHarness): { kind: string; job?: string; message: string }[] =>
  h.webhook.received as { kind: string; job?: string; message: string }[];
const readStatus = (h: ServiceHarness): StatusSnapshot => JSON.parse(readFileSync(statusFilePath(h.stateDir), 'utf8')) as StatusSnapshot;

describe('the schedule service on virtual time', () => {
  it('reconciles the journal first, then runs jobs through the runner over a week with a holiday, a half day and a DST change', async () => {
    // Wednesday 6 March 2024 is a holiday, Friday 8 March a half day; New York moves to UTC-4 on Sunday 10 March.
    harness = await startServiceHarness({
      startUtc: '2024-03-04T12:00:00Z',
      yaml: US_WEEK,
      holidays: ['2024-03-06'],
      halfDays: ['2024-03-08'],
    });
    const h = harness;
    h.runner.completing.add('us-dca');
    await h.service.start();

    await h.clock.advanceToAsync(Date.parse('2024-03-12T00:00:00Z'));

    const starts = h.runner.runs.map((run) => `${new Date(run.startedAt).toISOString().slice(0, 16)} ${run.job.name}`);
    expect(h.log[0]).toBe('reconcile');
    expect(starts).toEqual([
      '2024-03-04T14:30 us-trend',
      '2024-03-04T15:00 us-dca',
      '2024-03-05T14:30 us-trend',
      '2024-03-05T15:00 us-dca',
      '2024-03-07T14:30 us-trend',
      '2024-03-07T15:00 us-dca',
      '2024-03-08T14:30 us-trend',
      '2024-03-08T15:00 us-dca',
      '2024-03-11T13:30 us-trend',
      '2024-03-11T14:00 us-dca',
    ]);
    const trend = h.runner.runsOf('us-trend');
    expect(trend.map((run) => run.stops.map((stop) => `${stop.reason} flatten=${stop.flatten} cancel=${stop.cancelOpenOrders}`))).toEqual(
      Array.from({ length: 5 }, () => ['window-closed flatten=true cancel=true']),
    );
    // The half day's window closed at 13:00 local, the others at the stop.
    expect(trend.map((run) => run.context.closesAt).map((at) => new Date(at!).toISOString().slice(11, 16))).toEqual([
      '20:55',
      '20:55',
      '20:55',
      '18:00',
      '19:55',
    ]);
    expect(readStatus(h).jobs.find((job) => job.name === 'us-trend')?.lastSkipped).toMatchObject({
      reason: 'non-trading-day',
      local: '2024-03-06T09:30:00-05:00',
    });
  });

  it('resumes a window that is open at start, after the journal was reconciled (a restart)', async () => {
    harness = await startServiceHarness({ startUtc: '2024-03-04T03:00:00Z', yaml: HK_DAY });
    const h = harness;

    await h.service.start();

    expect(h.log).toEqual(['reconcile', 'start hk-trend (resume)', 'start hk-scalp (resume)']);
  });

  it('halts every job for the day and cancels the open orders when a run meets a daily-loss denial', async () => {
    harness = await startServiceHarness({ startUtc: '2024-03-04T03:00:00Z', yaml: HK_DAY });
    const h = harness;
    await h.service.start();
    const trend = h.runner.last('hk-trend');
    const scalp = h.runner.last('hk-scalp');

    trend.events.next({
      kind: 'denial',
      code: 'DAILY_LOSS_HALT',
      message: 'daily loss 21000 reached dailyLossLimit 20000',
      symbol: '700.HK',
    });
    await waitFor(() => h.log.includes('cancel-all'), "the journal's open orders to be cancelled");

    expect(trend.stops).toEqual([{ reason: 'kill-switch', flatten: false, cancelOpenOrders: true }]);
    expect(scalp.stops).toEqual([{ reason: 'kill-switch', flatten: false, cancelOpenOrders: true }]);
    expect((await h.service.status()).killSwitch?.reason).toBe('hk-trend: daily loss 21000 reached dailyLossLimit 20000');
    await h.webhook.requests(2);
    expect(notified(h).map((one) => one.kind)).toEqual(['denial', 'halt']);
    // The next morning the jobs run again.
    await h.clock.advanceToAsync(Date.parse('2024-03-05T01:31:00Z'));
    expect(h.runner.runsOf('hk-trend')).toHaveLength(2);
  });

  it("trips the kill switch when the account's net assets fall past dailyLossLimit between runs", async () => {
    harness = await startServiceHarness({ startUtc: '2024-03-04T01:00:00Z', yaml: HK_DAY });
    const h = harness;
    h.account.balanceList = [balance('HKD', '1000000')];
    await h.service.start();

    h.account.balanceList = [balance('HKD', '979000')];
    await h.clock.advanceByAsync(10 * 60_000);
    await waitFor(() => h.log.includes('cancel-all'), 'the kill switch to cancel the open orders');

    expect((await h.service.status()).killSwitch?.reason).toBe(
      'account: daily loss 21000 reached dailyLossLimit 20000 (net assets 979000, day start 1000000)',
    );
    await h.clock.advanceToAsync(Date.parse('2024-03-04T02:00:00Z'));
    expect(h.runner.runs).toEqual([]);
    expect(h.log).toEqual(['reconcile', 'cancel-all']);
  });

  it('restarts a crashing job with backoff, then halts it, and a real webhook receives the crash and halt notifications', async () => {
    harness = await startServiceHarness({ startUtc: '2024-03-04T03:00:00Z', yaml: HK_DAY });
    const h = harness;
    await h.service.start();

    h.runner.last('hk-trend').crash('strategy threw: division by zero');
    await h.clock.advanceByAsync(1000);
    h.runner.last('hk-trend').crash('strategy threw: division by zero');
    await h.webhook.requests(3);

    expect(h.runner.runsOf('hk-trend').map((run) => run.context.reason)).toEqual(['resume', 'restart']);
    expect(notified(h)).toEqual([
      expect.objectContaining({
        kind: 'crash',
        job: 'hk-trend',
        message: 'job hk-trend crashed (1 crash in 30m): strategy threw: division by zero; restarting in 1s',
      }),
      expect.objectContaining({
        kind: 'crash',
        job: 'hk-trend',
        message: 'job hk-trend crashed (2 crashes in 30m): strategy threw: division by zero',
      }),
      expect.objectContaining({
        kind: 'halt',
        job: 'hk-trend',
        message: 'job hk-trend halted for the rest of the market day after 2 crashes in 30m',
      }),
    ]);
    expect((await h.service.status()).jobs[0]).toMatchObject({
      state: 'halted',
      haltReason: 'crashes',
      lastError: { message: 'strategy threw: division by zero' },
    });
  });

  it('holds new orders back while the link is down past the limit, until it is back and reconciled', async () => {
    harness = await startServiceHarness({ startUtc: '2024-03-04T03:00:00Z', yaml: HK_DAY });
    const h = harness;
    const quote = new Subject<ConnectionState>();
    h.service.links.watch('quote connection', quote);
    await h.service.start();
    quote.next({ status: 'online', reconnected: false });

    quote.next({ status: 'reconnecting', attempt: 1, reason: 'socket closed', retryInMs: 2000 });
    await h.clock.advanceByAsync(30_000);
    const withinLimit = h.service.ordersBlocked();
    await h.clock.advanceByAsync(31_000);
    const pastLimit = h.service.ordersBlocked();
    quote.next({ status: 'online', reconnected: true });
    await waitFor(() => h.service.guard.state === 'up', 'the guard to let orders through');

    expect(withinLimit).toBeUndefined();
    expect(pastLimit).toMatch(/^link outage: new orders halted until the link and a reconciliation are back/);
    expect(h.service.ordersBlocked()).toBeUndefined();
    expect(h.log).toContain('reconcile-running');
    await h.webhook.requests(2);
    expect(notified(h).map((one) => one.kind)).toEqual(['outage', 'recovered']);
  });

  it('publishes status (file and health endpoint) with positions and the PnL of the day, and marks it stopped on a graceful stop', async () => {
    harness = await startServiceHarness({ startUtc: '2024-03-04T03:00:00Z', yaml: HK_DAY, overrides: { healthPort: 0 } });
    const h = harness;
    h.account.balanceList = [balance('HKD', '1000000')];
    h.account.positionList = [position('700.HK', '200', '350.2', 'HKD')];
    h.account.lastPrices.set('700.HK', Price.of('355'));
    await h.service.start();
    h.account.balanceList = [balance('HKD', '1000960')];
    await h.clock.advanceByAsync(10 * 60_000);

    const response = await request(`${h.service.healthUrl}/status`);
    const served = (await response.body.json()) as StatusSnapshot;
    await h.service.stop();

    expect(response.statusCode).toBe(200);
    expect(served).toMatchObject({
      state: 'running',
      healthy: true,
      jobs: [
        { name: 'hk-trend', state: 'running', windowOpen: true },
        { name: 'hk-scalp', state: 'running' },
      ],
    });
    expect(served.portfolio).toEqual({
      asOf: '2024-03-04T03:10:00.000Z',
      positions: [
        { symbol: '700.HK', quantity: '200', averageCost: '350.20', currency: 'HKD', marketValue: '71000.00', unrealizedPnl: '960.00' },
      ],
      pnlToday: [{ currency: 'HKD', netAssets: '1000960.00', dayStart: '1000000.00', change: '960.00' }],
    });
    expect(readStatus(h)).toMatchObject({ state: 'stopped', jobs: [{ name: 'hk-trend', state: 'idle' }, { name: 'hk-scalp' }] });
    expect(h.runner.last('hk-trend').stops).toEqual([{ reason: 'shutdown', flatten: false, cancelOpenOrders: false }]);
  });

  it("names every job's next fire time in the status file as soon as it has started", async () => {
    // Saturday 2024-03-02 noon in New York: nothing runs until Monday.
    harness = await startServiceHarness({ startUtc: '2024-03-02T17:00:00Z', yaml: US_WEEK });
    const h = harness;
    await h.service.start();

    await waitFor(() => readStatus(h).jobs.every((job) => job.next !== undefined), 'the status file names the next fire times');
    expect(readStatus(h).jobs.map((job) => [job.name, job.next?.local, job.next?.trigger])).toEqual([
      ['us-trend', '2024-03-04T09:30:00-05:00', 'start'],
      ['us-dca', '2024-03-04T10:00:00-05:00', 'cron'],
    ]);
    await h.service.stop();
  });

  it('refuses to start while another scheduler is running with the same state dir', async () => {
    harness = await startServiceHarness({ startUtc: '2024-03-04T03:00:00Z', yaml: HK_DAY });
    const h = harness;
    const other = { version: 1, generatedAt: new Date(h.clock.now()).toISOString(), state: 'running', pid: process.ppid, jobs: [] };
    writeFileSync(statusFilePath(h.stateDir), JSON.stringify(other));

    await expect(h.service.start()).rejects.toThrow(`another scheduler (pid ${process.ppid}) is running with the state dir ${h.stateDir}`);
    await h.service.stop();

    expect(h.log).toEqual([]);
    expect(readStatus(h)).toMatchObject({ pid: process.ppid, state: 'running' });
  });

  it('refreshes the access token ahead of its expiry', async () => {
    const refreshed: number[] = [];
    const expiresAt = Date.parse('2024-03-20T00:00:00Z');
    harness = await startServiceHarness({
      startUtc: '2024-03-04T00:00:00Z',
      yaml: HK_DAY,
      overrides: { token: { expiresAt, refresh: async () => (refreshed.push(h.clock.now()), expiresAt + 90 * 86_400_000) } },
    });
    const h: ServiceHarness = harness;
    await h.service.start();

    await h.clock.advanceToAsync(Date.parse('2024-03-12T23:59:00Z'));
    const before = refreshed.length;
    await h.clock.advanceToAsync(Date.parse('2024-03-13T00:01:00Z'));

    // tokenRefreshLead defaults to seven days.
    expect(before).toBe(0);
    expect(refreshed).toEqual([Date.parse('2024-03-13T00:00:00Z')]);
  });
});
