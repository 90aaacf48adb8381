// `trader run` killed (SIGKILL) with an order in flight, against a service that kept running (the simulator
// on loopback, reached as a live account), and started again after the order filled: on the next market
// day (the order is then only in the broker's history), and after a closing fill made while it was down
// (the journal's position must follow it, so no later start disagrees with the broker).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { injectFaults } from '../support/openapi/broker-harness.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnRun, type RunningTrader } from '../support/run/spawn-run.js';
import { DATES, localInstant, US } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';
import { sqliteRows } from '../support/sqlite-rows.js';

/** A process start on a loaded 2-core machine can take tens of seconds: the guard only catches a broken run. */
const STARTUP_MS = 60_000;

// Several processes start one after the other: each test has minutes, not the default 30 s.
const BUY_ONCE = 'test/support/run/strategies/buy-once.ts';
const ACT_ONCE = 'test/support/run/strategies/act-once.ts';
let sim: SimHarness | undefined;
const children: RunningTrader[] = [];

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.child.exitCode === null && child.child.signalCode === null) await child.signal('SIGKILL');
  await sim?.close();
  sim = undefined;
  await removeTempFolders();
});

function start(strategy: string, journal: string, env: Readonly<Record<string, string>>, extra: readonly string[] = []): RunningTrader {
  const run = spawnRun([strategy, '--live', '--yes', '--symbols', US, '--journal', journal, '--json-logs', ...extra], env);
  children.push(run);
  return run;
}

/** The next order the venue takes has its answer held back an hour: the process dies waiting for it. */
function holdNextAnswer(h: SimHarness): Promise<void> {
  return new Promise((resolve) => {
    const off = h.sim.venue.onOrderUpdate(() => {
      off();
      injectFaults(h.sim, { latencyMs: 3_600_000 });
      resolve();
    });
  });
}

/** Starts a run, lets it act on the next quote, and kills it (SIGKILL) while its order's answer is held back. */
async function killMidOrder(h: SimHarness, strategy: string, journal: string, extra: readonly string[] = []): Promise<void> {
  let placed = false;
  const landed = holdNextAnswer(h).then(() => {
    placed = true;
  });
  const run = start(strategy, journal, h.sim.env, extra);
  await run.waitForLog('running: journal and broker reconciled', STARTUP_MS);
  // The strategy acts on its first quote: the one the service sends with the subscription (it may have acted and
  // let go of its quotes before the run reports them), or the next tick's.
  if (!placed) h.stepUntil((tick) => tick.symbol === US);
  await landed;
  expect((await run.signal('SIGKILL')).signal).toBe('SIGKILL');
  injectFaults(h.sim, { latencyMs: 0 });
}

/** Starts a run, waits until it has reconciled, and stops it like Ctrl-C; returns what it logged. */
async function reconcileOnce(h: SimHarness, journal: string, strategy = ACT_ONCE): Promise<string> {
  const run = start(strategy, journal, h.sim.env);
  await run.waitForLog('running: journal and broker reconciled', STARTUP_MS);
  expect(await run.signal('SIGINT')).toEqual({ code: 0, signal: null });
  return run.stderr();
}

describe('trader run restarted after an order filled while it was down', () => {
  it('on the next market day, finds the order in the broker history and books its fill', async () => {
    sim = await startSimHarness();
    const h = sim;
    const journal = join(await tempFolder(), 'journal.sqlite');

    await killMidOrder(h, BUY_ONCE, journal);
    h.stepUntil((tick) => tick.symbol === US);
    expect(h.sim.venue.orders().map((order) => order.status)).toEqual(['FilledStatus']);
    h.stepUntil((tick) => tick.symbol === US && tick.time >= localInstant(US, DATES[1], 9, 30));
    expect(h.sim.venue.orders({ today: true })).toEqual([]);
    const logs = await reconcileOnce(h, journal, BUY_ONCE);

    const [order] = h.sim.venue.orders();
    expect(h.sim.venue.orders()).toHaveLength(1);
    expect(sqliteRows(journal, 'SELECT client_order_id, order_id, status, executed_quantity FROM orders')).toEqual([
      { client_order_id: order!.remark, order_id: order!.orderId, status: 'FilledStatus', executed_quantity: '100' },
    ]);
    expect(sqliteRows(journal, 'SELECT order_id, quantity FROM fills')).toEqual([{ order_id: order!.orderId, quantity: '100' }]);
    expect(sqliteRows(journal, 'SELECT symbol, quantity FROM positions')).toEqual([{ symbol: US, quantity: '100' }]);
    expect(logs).not.toContain('"msg":"reconciliation: ');
    expect(logs).not.toContain('the submit never arrived');
  }, 180_000);

  it('after a closing fill, brings the journal position to the broker, and later starts find nothing to report', async () => {
    sim = await startSimHarness();
    const h = sim;
    const journal = join(await tempFolder(), 'journal.sqlite');
    const buyer = start(ACT_ONCE, journal, h.sim.env, ['--param', 'action=buy']);
    await buyer.waitForLog(`quotes of ${US} subscribed`, STARTUP_MS);
    h.stepUntil((tick) => tick.symbol === US);
    await buyer.waitForLog('"msg":"order NewStatus"', STARTUP_MS);
    h.stepUntil((tick) => tick.symbol === US);
    await buyer.waitForLog('"msg":"fill"', STARTUP_MS);
    expect(await buyer.signal('SIGINT')).toEqual({ code: 0, signal: null });
    expect(sqliteRows(journal, 'SELECT quantity FROM positions')).toEqual([{ quantity: '10' }]);

    await killMidOrder(h, ACT_ONCE, journal, ['--param', 'action=close']);
    h.stepUntil((tick) => tick.symbol === US);
    expect(h.sim.venue.orders().map((order) => [order.side, order.status])).toEqual([
      ['Buy', 'FilledStatus'],
      ['Sell', 'FilledStatus'],
    ]);
    const first = await reconcileOnce(h, journal);
    const second = await reconcileOnce(h, journal);

    expect(sqliteRows(journal, 'SELECT symbol, quantity FROM positions')).toEqual([{ symbol: US, quantity: '0' }]);
    expect(sqliteRows(journal, 'SELECT side, quantity FROM fills ORDER BY time')).toEqual([
      { side: 'Buy', quantity: '10' },
      { side: 'Sell', quantity: '10' },
    ]);
    expect(first).not.toContain('the journal expects');
    expect(second).not.toContain('the journal expects');
  }, 300_000);
});
