import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { ORDERS_HALTED } from '../../src/runtime/job-run.js';
import type { JobRunEvent } from '../../src/schedule/job-runner.js';
import { US } from '../support/sim/candles.js';
import { expectJournalMatchesVenue, ledgerOfVenue, readRows } from '../support/schedule/ledger-check.js';
import { startRunnerHarness, type RunnerHarness, usWindowConfig } from '../support/schedule/runner-harness.js';
import { waitFor } from '../support/schedule/wait.js';

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const WINDOW = (name: string, params = '{}') => usWindowConfig(name, [`params: ${params}`, 'flattenAtStop: true']);

const CRON = (name: string, extra = '') => `
jobs:
  - name: ${name}
    strategy: $STRATEGY
    symbols: [${US}]
    cron: "0 10 * * 1"
${extra}`;

function collect(run: { readonly events?: import('rxjs').Observable<JobRunEvent> }): JobRunEvent[] {
  const seen: JobRunEvent[] = [];
  run.events?.subscribe((event) => seen.push(event));
  return seen;
}

describe('SessionJobRunner over the paper simulator', () => {
  it('runs a window job as a session, reports its fill, and flattens and cancels at the stop', async () => {
    harness = await startRunnerHarness();
    const h = harness;
    const run = h.start(h.job(WINDOW('us-window')));
    const events = collect(run);
    await h.running('us-window');

    h.tick();
    await waitFor(() => h.sim.venue.orders().length === 1, 'the order to reach the venue');
    h.tick();
    await waitFor(() => events.some((event) => event.kind === 'fill'), 'the fill to be reported');
    const stopping = run.stop({ reason: 'window-closed', flatten: true, cancelOpenOrders: true });
    await waitFor(() => h.sim.venue.orders().length === 2, 'the closing order to reach the venue');
    h.tick();
    await stopping;

    expect(await run.done).toBe('stopped');
    const [buy, sell] = h.sim.venue.orders();
    expect(buy).toMatchObject({ side: 'Buy', status: 'FilledStatus' });
    expect(buy!.remark).toMatch(/^us-window-/);
    expect(sell).toMatchObject({ side: 'Sell', symbol: US });
    expect(events.find((event) => event.kind === 'fill')).toMatchObject({
      kind: 'fill',
      symbol: US,
      side: 'Buy',
      quantity: '1',
      orderId: buy!.orderId,
    });
    expect(readRows<{ strategy: string }>(h.journalFile, 'SELECT DISTINCT strategy FROM orders')).toEqual([{ strategy: 'us-window' }]);
  });

  it('ends a cron run by itself once its strategy completed and its order is filled', async () => {
    harness = await startRunnerHarness();
    const h = harness;
    const run = h.start(h.job(CRON('us-dca')), 'fire');
    await h.running('us-dca');

    h.tick();
    await waitFor(() => h.sim.venue.orders().length === 1, 'the order to reach the venue');
    h.tick();

    expect(await run.done).toBe('completed');
    expect(h.live.has('us-dca')).toBe(false);
    expectJournalMatchesVenue(h.journalFile, ledgerOfVenue(h.sim.venue));
  });

  it('crashes (done rejects with the cause) when the strategy fails, so the supervisor can restart it', async () => {
    harness = await startRunnerHarness();
    const h = harness;
    const run = h.start(h.job(WINDOW('us-crash', '{ failOnQuote: true }')));
    await h.running('us-crash');

    h.tick();

    // The cause with the line of the strategy's file that threw (on a quote: no bar to name).
    await expect(run.done).rejects.toThrow(
      /^strategy failed: strategy threw on its first quote \(at test\/support\/schedule\/strategies\/buy-on-quote\.ts:16:\d+\)$/,
    );
    expect(h.sim.venue.orders()).toEqual([]);
  });

  it('holds new orders back while the gate is closed, reports them as denials and journals each intent with its denial', async () => {
    const gate = { reason: 'link outage: new orders halted' as string | undefined, blocked: () => gate.reason };
    harness = await startRunnerHarness({ gate });
    const h = harness;
    const run = h.start(h.job(WINDOW('us-gated')));
    const events = collect(run);
    await h.running('us-gated');

    h.tick();
    await waitFor(() => events.length > 0, 'the held-back intent to be reported');
    await run.stop({ reason: 'shutdown', flatten: false, cancelOpenOrders: false });

    expect(events).toEqual([{ kind: 'denial', code: ORDERS_HALTED, message: 'link outage: new orders halted', symbol: US }]);
    expect(h.sim.venue.orders()).toEqual([]);
    expect(
      readRows(h.journalFile, 'SELECT i.strategy, i.kind, i.symbol, d.code, d.message FROM denials d JOIN intents i ON i.id = d.intent_id'),
    ).toEqual([{ strategy: 'us-gated', kind: 'order', symbol: US, code: ORDERS_HALTED, message: 'link outage: new orders halted' }]);
  });

  it("names the job once in each JSON log line of its run (the runner's logger carries it already)", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(
          ...String(chunk)
            .split('\n')
            .filter((line) => line !== ''),
        );
        done();
      },
    });
    harness = await startRunnerHarness({ logger: createLogger({ destination }) });
    const h = harness;
    const run = h.start(h.job(WINDOW('us-logged')));
    await h.running('us-logged');
    await run.stop({ reason: 'window-closed', flatten: false, cancelOpenOrders: true });

    const ending = lines.filter((line) => line.includes('run ending') || line.includes('open order(s) cancelled'));
    expect(ending).toHaveLength(2);
    for (const line of ending) expect(line.match(/"job":/g)).toHaveLength(1);
  });

  it("cancels only the stopped job's open orders: another job on the same account keeps its own", async () => {
    harness = await startRunnerHarness();
    const h = harness;
    const first = h.start(h.job(WINDOW('job-a', '{ limit: 150 }')));
    const second = h.start(h.job(WINDOW('job-b', '{ limit: 151 }')));
    await h.running('job-a');
    await h.running('job-b');
    h.tick();
    await waitFor(
      () => h.sim.venue.orders().filter((order) => order.status === 'NewStatus').length === 2,
      'both limit orders to rest at the venue',
    );

    await first.stop({ reason: 'window-closed', flatten: false, cancelOpenOrders: true });

    const byJob = (prefix: string) => h.sim.venue.orders().find((order) => order.remark.startsWith(`${prefix}-`))!;
    await waitFor(() => byJob('job-a').status === 'CanceledStatus', "job-a's order to be cancelled");
    expect(byJob('job-b').status).toBe('NewStatus');
    expect(readRows<{ status: string }>(h.journalFile, "SELECT status FROM orders WHERE strategy = 'job-a'")).toEqual([
      { status: 'CanceledStatus' },
    ]);
    await second.stop({ reason: 'shutdown', flatten: false, cancelOpenOrders: false });
  });

  it('cancels every open order of the journal for the kill switch, whichever job placed it', async () => {
    harness = await startRunnerHarness();
    const h = harness;
    const run = h.start(h.job(WINDOW('job-a', '{ limit: 150 }')));
    await h.running('job-a');
    h.tick();
    await waitFor(() => h.sim.venue.orders().some((order) => order.status === 'NewStatus'), 'the limit order to rest');
    await run.stop({ reason: 'shutdown', flatten: false, cancelOpenOrders: false });

    const cancelled = await h.runner.reconcileJournal({ cancelOpenOrders: true });

    await waitFor(() => h.sim.venue.orders()[0]!.status === 'CanceledStatus', 'the order to be cancelled');
    expect(cancelled).toBe(1);
    expectJournalMatchesVenue(h.journalFile, ledgerOfVenue(h.sim.venue));
  });

  it('stops a cron run that outlives runFor, cancelling its resting order', async () => {
    harness = await startRunnerHarness();
    const h = harness;
    const run = h.start(h.job(CRON('slow-dca', '    runFor: 10m\n    params: { limit: 150 }')), 'fire');
    await h.running('slow-dca');
    h.tick();
    await waitFor(() => h.sim.venue.orders().some((order) => order.status === 'NewStatus'), 'the limit order to rest');

    await h.clock.advanceByAsync(10 * 60_000);

    expect(await run.done).toBe('completed');
    expect(h.sim.venue.orders()[0]!.status).toBe('CanceledStatus');
  });
});
