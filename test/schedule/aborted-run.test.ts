// A strategy run the supervisor aborts (its stop took longer than stopTimeout), over the real simulator on
// 127.0.0.1 with every answer held back: the run closes its link to the venue at once, so the calls it is
// stuck on fail, the session stops without waiting (in virtual time) and nothing reconnects or calls again.
// Aborted while its session still starts (a read held by the account's pacing), the start is cut the same way.
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/openapi/config.js';
import { accountRateLimiter } from '../../src/openapi/http/rate-limiter.js';
import { Supervisor } from '../../src/schedule/supervisor.js';
import { readRows } from '../support/schedule/ledger-check.js';
import { injectFaults } from '../support/openapi/broker-harness.js';
import { startRunnerHarness, usWindowConfig, type RunnerHarness } from '../support/schedule/runner-harness.js';
import { waitFor } from '../support/schedule/wait.js';

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const WINDOW = usWindowConfig('stuck');

/** Every HTTP answer (and socket reply) of the simulator an hour late, on the tests' virtual clock. */
const HOUR_LATE = { latencyMs: 3_600_000 };

describe('an aborted strategy run', () => {
  it('closes its venue link at once: the calls it waits on fail, its session stops and the journal is flushed', async () => {
    harness = await startRunnerHarness();
    const h = harness;
    const abort = new AbortController();
    const run = h.start(h.job(WINDOW), 'window', undefined, abort);
    const session = await h.running('stuck');
    injectFaults(h.sim, HOUR_LATE);
    h.tick();
    await waitFor(() => session.runtime.busy, 'the order intent to wait for its risk figures');
    const stopping = run.stop({ reason: 'shutdown', flatten: false, cancelOpenOrders: false });
    const abortedAt = h.clock.now();

    abort.abort(new Error('stop timed out'));

    await expect(run.done).rejects.toThrow('run aborted: stop timed out');
    await stopping;
    // No virtual time passed: nothing waited for a timeout or a retry.
    expect(h.clock.now()).toBe(abortedAt);
    expect(session.link.trade.connection.state.status).toBe('closed');
    await expect(session.link.http.accountBalance()).rejects.toThrow(/client is closed/);
    // The session stopped before the run ended: the journal holds the stop, and the intent's denial.
    expect(readRows<{ type: string }>(h.journalFile, "SELECT type FROM events WHERE type = 'stopped'")).toHaveLength(1);
    // The intent, its figures failed with the link, is held back: the job was stopping.
    expect(readRows<{ code: string }>(h.journalFile, 'SELECT code FROM denials')).toEqual([{ code: 'ORDERS_HALTED' }]);
    expect(h.sim.venue.orders()).toEqual([]);
    // Nothing reconnects or calls again later.
    injectFaults(h.sim, { latencyMs: 0 });
    await h.clock.advanceByAsync(10 * 60_000);
    expect(h.sim.connections().filter((connection) => connection.kind === 'trade')).toEqual([]);
  });

  it("ends a schedule's shutdown within the stop timeout and the run's own end: the run has stopped before the venue may close", async () => {
    harness = await startRunnerHarness();
    const h = harness;
    const job = h.job(WINDOW);
    const supervisor = new Supervisor({ clock: h.clock, runner: h.runner, jobs: [job], stopTimeoutMs: 5_000 });
    const day = { market: 'US', date: '2024-01-02', kind: 'full', source: 'service' } as const;
    const now = h.clock.now();
    supervisor.handle({
      kind: 'window-opened',
      job: 'stuck',
      at: now,
      local: '',
      day,
      closesAt: now + 3_600_000,
      closeReason: 'stop',
      resumed: false,
    });
    const session = await h.running('stuck');
    injectFaults(h.sim, HOUR_LATE);
    h.tick();
    await waitFor(() => session.runtime.busy, 'the order intent to wait for its risk figures');
    let down = false;
    const shutdown = supervisor.shutdown().then(() => (down = true));

    await h.clock.advanceByAsync(4_999);
    expect(down).toBe(false);
    await h.clock.advanceByAsync(1);
    await shutdown;

    // Shut down at the stop timeout, not at twice it (the run was not abandoned): its session had stopped.
    expect(h.clock.now() - now).toBe(5_000);
    expect(supervisor.status()[0]).toMatchObject({
      state: 'idle',
      lastResult: { outcome: 'stopped', message: 'run aborted: stop timed out' },
    });
    expect(h.live.has('stuck')).toBe(false);
    expect(session.link.trade.connection.state.status).toBe('closed');
    expect(readRows<{ type: string }>(h.journalFile, "SELECT type FROM events WHERE type = 'stopped'")).toHaveLength(1);
  });

  it('cut short while its session starts: the start ends at once, its connections close and nothing is left running', async () => {
    const pacing = { calls: 30, windowMs: 30_000, minSpacingMs: 0 } as const;
    harness = await startRunnerHarness({ http: { rateLimit: pacing, retryDelaysMs: [100] } });
    const h = harness;
    const timers = h.clock.pendingTimers;
    // Other clients of the account took this window's position reads: the start's reconciliation waits its turn.
    const positions = 'GET /v1/asset/stock';
    const limiter = accountRateLimiter(h.clock, configFromEnv(h.sim.env), pacing);
    for (let call = 0; call < pacing.calls; call++) (await limiter.acquire(positions))();
    const abort = new AbortController();
    const run = h.start(h.job(WINDOW), 'window', undefined, abort);
    await waitFor(() => limiter.waiting(positions) === 1, 'the start to wait for its reconciliation read');
    expect(
      h.sim
        .connections()
        .map((connection) => connection.kind)
        .sort(),
    ).toEqual(['quote', 'trade']);
    const abortedAt = h.clock.now();
    let ended = false;
    void run.done.catch(() => undefined).finally(() => (ended = true));

    abort.abort(new Error('stop timed out'));

    await waitFor(() => ended, 'the run to end', 5_000);
    await expect(run.done).rejects.toThrow('run aborted: stop timed out');
    // No virtual time passed, the read was withdrawn, and the session never ran.
    expect(h.clock.now()).toBe(abortedAt);
    expect(limiter.waiting(positions)).toBe(0);
    expect(h.live.has('stuck')).toBe(false);
    await waitFor(() => h.sim.connections().length === 0, "the start's connections to close");
    expect(h.clock.pendingTimers).toBe(timers);
    // Nothing connects, calls or starts later.
    await h.clock.advanceByAsync(10 * 60_000);
    expect(h.sim.connections()).toEqual([]);
    expect(h.live.has('stuck')).toBe(false);
  });
});
