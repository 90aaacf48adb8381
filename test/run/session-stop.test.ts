import { afterEach, describe, expect, it } from 'vitest';
import { startSession, type Session } from '../../src/runtime/session.js';
import { HK } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { controlledStrategy } from '../support/run/controlled-strategy.js';
import { OPEN_HTTP, removeTempFolders, startPaperHarness, tempFolder, type PaperHarness } from '../support/run/paper-harness.js';
import { join } from 'node:path';
import { Price, Quantity } from '../../src/domain/index.js';
import { injectFaults } from '../support/openapi/broker-harness.js';

let harness: PaperHarness | undefined;
let sim: SimHarness | undefined;
let live: Session | undefined;

afterEach(async () => {
  await harness?.stop();
  await live?.stop();
  await sim?.close();
  harness = undefined;
  live = undefined;
  sim = undefined;
  await removeTempFolders();
});

describe('stopping a session', () => {
  it("flattens the strategy's position with a market order when asked, and waits for the fill", async () => {
    const control = controlledStrategy(AAPL);
    harness = await startPaperHarness({ strategies: [control.strategy], candles: [wavingDays(20)] });
    const h = harness;
    await h.step();
    control.emit((ctx) => ctx.buy(10));
    await h.settle();
    await h.step();

    const stopping = h.stop({ flatten: true });
    await h.until(() => h.sim.venue.orders().length === 2, 'the closing order');
    h.sim.replay.step();
    const report = await stopping;

    expect(h.sim.venue.orders().map((order) => [order.side, order.quantity.toFixed(), order.status])).toEqual([
      ['Buy', '10', 'FilledStatus'],
      ['Sell', '10', 'FilledStatus'],
    ]);
    expect(report.summary.positions.map((position) => position.quantity.toFixed())).toEqual(['0']);
    expect(h.journal<{ quantity: string }>('SELECT quantity FROM positions')).toEqual([{ quantity: '0' }]);
    harness = undefined;
  });

  it("cancels the run's open orders on exit when asked, and the journal keeps the cancellation", async () => {
    const control = controlledStrategy(AAPL);
    harness = await startPaperHarness({ strategies: [control.strategy], candles: [wavingDays(20)] });
    const h = harness;
    await h.step();
    control.emit((ctx) => ctx.buy(10, { price: 50 }));
    await h.settle();

    const report = await h.stop({ cancelOpenOrders: true });
    harness = undefined;

    expect(h.sim.venue.orders().map((order) => order.status)).toEqual(['CanceledStatus']);
    expect(report.summary.openOrders).toBe(0);
    expect(h.journal<{ status: string }>('SELECT status FROM orders')).toEqual([{ status: 'CanceledStatus' }]);
  });
});

/** Advances the wall clock `stepMs` at a time until `promise` settles (at most `steps` times). */
async function driveUntil<T>(h: PaperHarness, promise: Promise<T>, stepMs: number, steps = 20): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  for (let step = 0; step < steps && !settled; step++) {
    await new Promise((resolve) => setImmediate(resolve));
    await h.clock.advanceByAsync(stepMs);
  }
  return watched;
}

describe('stopping while intents wait (answers held back by the simulator)', () => {
  it('takes no new intent once stopping: queued ones are dropped, only the submit already sent finishes', async () => {
    const control = controlledStrategy(AAPL);
    harness = await startPaperHarness({ strategies: [control.strategy], candles: [wavingDays(20)] });
    const h = harness;
    await h.step();
    injectFaults(h.sim, { latencyMs: 5_000 });
    for (const quantity of [1, 2, 3]) control.emit((ctx) => ctx.buy(quantity));
    // The first intent's risk figures come back after 5 s; then its submit lands and its answer is held.
    await h.untilTimerAt(h.clock.now() + 5_000);
    await h.clock.advanceByAsync(5_000);
    await h.until(() => h.sim.venue.orders().length === 1, 'the first order to land');

    const report = await driveUntil(h, h.stop(), 5_000);
    harness = undefined;

    expect(h.sim.venue.orders().map((order) => [order.side, order.quantity.toFixed()])).toEqual([['Buy', '1']]);
    expect(report.summary.orders).toBe(1);
    expect(h.journal<{ status: string; order_id: string | null }>('SELECT status, order_id FROM orders')).toEqual([
      { status: 'NewStatus', order_id: h.sim.venue.orders()[0]!.orderId },
    ]);
  });

  it('places no order for the intent whose risk figures were still being fetched when the stop came', async () => {
    const control = controlledStrategy(AAPL);
    harness = await startPaperHarness({ strategies: [control.strategy], candles: [wavingDays(20)] });
    const h = harness;
    await h.step();
    injectFaults(h.sim, { latencyMs: 5_000 });
    control.emit((ctx) => ctx.buy(1));
    await h.untilTimerAt(h.clock.now() + 5_000);

    const report = await driveUntil(h, h.stop(), 5_000);
    harness = undefined;

    expect(h.sim.venue.orders()).toEqual([]);
    expect(report.summary.orders).toBe(0);
    expect(h.ofType('intent-skipped').map((event) => event.reason)).toEqual(['the run is stopping: no new orders']);
  });
});

describe('live session against a service on loopback', () => {
  it('reports orders at the broker that are not ours before the strategy starts, and never touches them', async () => {
    sim = await startSimHarness();
    sim.stepUntil((tick) => tick.symbol === HK);
    const foreign = await sim.http.submitOrder({
      symbol: HK,
      side: 'Buy',
      orderType: 'LO',
      quantity: Quantity.of(100),
      price: Price.of(1),
      timeInForce: 'GTC',
      remark: 'placed by hand',
    });
    const control = controlledStrategy(HK);

    live = await startSession({
      venue: { mode: 'live', config: sim.config },
      strategies: [control.strategy],
      journalFile: join(await tempFolder(), 'journal.sqlite'),
      clock: sim.clock,
      http: OPEN_HTTP,
      statusEveryMs: 0,
    });
    const findings = live.report().findings;
    const report = await live.stop({ cancelOpenOrders: true });
    live = undefined;

    expect(findings).toEqual([
      {
        kind: 'unknown-order',
        message: expect.stringContaining(`order ${foreign.orderId} (Buy 100 700.HK, NewStatus) is not one of ours`),
      },
    ]);
    expect(report.mode).toBe('live');
    expect((await sim.http.orderDetail(foreign.orderId)).status).toBe('NewStatus');
  });
});
