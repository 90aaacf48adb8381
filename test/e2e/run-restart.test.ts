// A `trader run` process killed (SIGKILL) in the middle of an order and started again with the same journal,
// against a service that kept running (the simulator on loopback, reached as a live account): the restarted
// run finds the order by its client order id, books the fill made while it was down, sends nothing twice.
import { join } from 'node:path';
import { sqliteRows } from '../support/sqlite-rows.js';
import { afterEach, describe, expect, it } from 'vitest';
import { injectFaults } from '../support/openapi/broker-harness.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnRun, type RunningTrader } from '../support/run/spawn-run.js';
import { US } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';

const STRATEGY = 'test/support/run/strategies/buy-once.ts';
let sim: SimHarness | undefined;
const children: RunningTrader[] = [];

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.child.exitCode === null && child.child.signalCode === null) await child.signal('SIGKILL');
  await sim?.close();
  sim = undefined;
  await removeTempFolders();
});

function start(journal: string, env: Readonly<Record<string, string>>): RunningTrader {
  const run = spawnRun([STRATEGY, '--live', '--yes', '--symbols', US, '--journal', journal, '--json-logs'], env);
  children.push(run);
  return run;
}

const rows = sqliteRows;

describe('trader run killed mid-order and restarted', () => {
  it('finds the order it was sending, books the fill made while it was down, and never sends it again', async () => {
    sim = await startSimHarness();
    const h = sim;
    const journal = join(await tempFolder(), 'journal.sqlite');
    // The service takes the order but its answer is held back: the process dies waiting for it.
    const landed = new Promise<void>((resolve) => {
      const off = h.sim.venue.onOrderUpdate(() => {
        off();
        injectFaults(h.sim, { latencyMs: 3_600_000 });
        resolve();
      });
    });

    const first = start(journal, h.sim.env);
    await first.waitForLog(`quotes of ${US} subscribed`);
    h.stepUntil((tick) => tick.symbol === US);
    await landed;
    const killed = await first.signal('SIGKILL');
    injectFaults(h.sim, { latencyMs: 0 });
    expect(killed.signal).toBe('SIGKILL');
    expect(
      rows<{ status: string; order_id: string | null }>(journal, 'SELECT status, order_id FROM orders').map((row) => row.status),
    ).toEqual([expect.stringMatching(/^(NotReported|NewStatus)$/)]);
    h.stepUntil((tick) => tick.symbol === US);
    expect(h.sim.venue.orders().map((order) => order.status)).toEqual(['FilledStatus']);

    const second = start(journal, h.sim.env);
    await second.waitForLog('running: journal and broker reconciled');
    const exit = await second.signal('SIGINT');

    expect(exit).toEqual({ code: 0, signal: null });
    const [order] = h.sim.venue.orders();
    expect(h.sim.venue.orders()).toHaveLength(1);
    expect(rows(journal, 'SELECT client_order_id, order_id, status, executed_quantity FROM orders')).toEqual([
      { client_order_id: order!.remark, order_id: order!.orderId, status: 'FilledStatus', executed_quantity: '100' },
    ]);
    const [execution] = h.sim.venue.executions();
    expect(rows(journal, 'SELECT order_id, quantity, price FROM fills')).toEqual([
      { order_id: order!.orderId, quantity: '100', price: execution!.price.toFixed() },
    ]);
    expect(rows(journal, 'SELECT symbol, quantity FROM positions')).toEqual([{ symbol: US, quantity: '100' }]);
    expect(second.stderr()).not.toContain('"msg":"order submitted"');
    expect(second.stdout()).toMatch(new RegExp(`Run summary \\(live, .*\\n[\\s\\S]*${US.replace('.', '\\.')}\\s+100\\s`));
  });
});
