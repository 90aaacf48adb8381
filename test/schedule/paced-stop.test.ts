// A job stopped while its order intent's risk figures wait behind the account's HTTP pacing (other clients of
// the account used the window): the graceful stop does not wait for those reads, whether the window closed or
// a person paused the job or tripped the kill switch (the supervisor stops its run). Over the real simulator
// on 127.0.0.1 with the trade limit's 30 calls per 30 s, on a VirtualClock that stands still.
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/openapi/config.js';
import { accountRateLimiter, type RateLimiter } from '../../src/openapi/http/rate-limiter.js';
import { ORDERS_HALTED } from '../../src/runtime/job-run.js';
import type { ScheduleEvent } from '../../src/schedule/events.js';
import { Supervisor } from '../../src/schedule/supervisor.js';
import { readRows } from '../support/schedule/ledger-check.js';
import { startRunnerHarness, usWindowConfig, type RunnerHarness } from '../support/schedule/runner-harness.js';
import { waitFor } from '../support/schedule/wait.js';

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const WINDOW = usWindowConfig('paced');

const PACING = { calls: 30, windowMs: 30_000, minSpacingMs: 0 } as const;
const ACCOUNT = 'GET /v1/asset/account';

/** Other clients of the account (the schedule's watch, other jobs) take the window's account reads; then the job's intent queues its own. */
async function intentReadQueued(h: RunnerHarness): Promise<{ limiter: RateLimiter; others: number }> {
  const limiter = accountRateLimiter(h.clock, configFromEnv(h.sim.env), PACING);
  for (let call = 0; call < PACING.calls; call++) void limiter.acquire(ACCOUNT).then((done) => done());
  await waitFor(() => limiter.waiting(ACCOUNT) > 0, 'the window to fill');
  const others = limiter.waiting(ACCOUNT);
  h.tick();
  await waitFor(() => limiter.waiting(ACCOUNT) === others + 1, "the intent's account read to queue");
  return { limiter, others };
}

function denials(h: RunnerHarness): { code: string; message: string }[] {
  return readRows<{ code: string; message: string }>(h.journalFile, 'SELECT code, message FROM denials');
}

describe('a job stopped while its risk reads wait for the account pacing', () => {
  it('denies the waiting intent as held back at once, withdraws its reads and ends without waiting for their turn', async () => {
    harness = await startRunnerHarness({ http: { rateLimit: PACING, retryDelaysMs: [100] } });
    const h = harness;
    const run = h.start(h.job(WINDOW));
    await h.running('paced');
    const { limiter, others } = await intentReadQueued(h);
    let ended = false;
    void run.done.finally(() => (ended = true));
    const stoppedAt = h.clock.now();

    const stopping = run.stop({ reason: 'window-closed', flatten: false, cancelOpenOrders: true });

    await waitFor(() => ended, 'the run to end', 5_000);
    expect(await run.done).toBe('stopped');
    await stopping;
    // No virtual time passed: the stop did not wait for the account's next turn (up to 30 s away).
    expect(h.clock.now()).toBe(stoppedAt);
    expect(limiter.waiting(ACCOUNT)).toBe(others);
    expect(denials(h)).toEqual([{ code: ORDERS_HALTED, message: 'job paced is stopping' }]);
    expect(h.sim.venue.orders()).toEqual([]);
  });

  it.each([
    { action: 'a pause', act: (supervisor: Supervisor) => supervisor.pause('paced') },
    { action: 'the kill switch', act: (supervisor: Supervisor) => supervisor.haltForDay('fat finger') },
  ])('$action of the job ends its run at once, the waiting intent held back', async ({ act }) => {
    harness = await startRunnerHarness({ http: { rateLimit: PACING, retryDelaysMs: [100] } });
    const h = harness;
    const supervisor = new Supervisor({ clock: h.clock, runner: h.runner, jobs: [h.job(WINDOW)] });
    supervisor.handle(windowOpened(h.clock.now()));
    await h.running('paced');
    const { limiter, others } = await intentReadQueued(h);
    const stoppedAt = h.clock.now();

    let stopped = false;
    void act(supervisor).then(() => (stopped = true));

    await waitFor(() => stopped, 'the run to stop', 5_000);
    expect(supervisor.status()[0]).toMatchObject({ runStartedAt: undefined });
    expect(h.clock.now()).toBe(stoppedAt);
    expect(limiter.waiting(ACCOUNT)).toBe(others);
    expect(denials(h)).toEqual([{ code: ORDERS_HALTED, message: 'job paced is stopping' }]);
    expect(h.sim.venue.orders()).toEqual([]);
  });
});

function windowOpened(at: number): ScheduleEvent {
  const day = { market: 'US', date: '2024-06-03', kind: 'full', source: 'service' } as const;
  return { kind: 'window-opened', job: 'paced', at, local: '', day, closesAt: at + 3_600_000, closeReason: 'stop', resumed: false };
}
