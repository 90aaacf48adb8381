// Fault injection over a paper session: the real simulator fails the protocol on purpose (dropped sockets,
// HTTP 500 and 429 on submit, a lost submit answer, duplicated and out-of-order pushes), and the run must
// still send no order twice, lose no fill, and end with the simulator's positions.
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderUpdate } from '../../src/domain/order.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { injectFaults } from '../support/openapi/broker-harness.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { expectConsistent } from '../support/run/consistency.js';
import { controlledStrategy, type ControlledStrategy } from '../support/run/controlled-strategy.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';
import { first } from '../support/socket/wait.js';

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

async function controlled(): Promise<{ h: PaperHarness; control: ControlledStrategy }> {
  const control = controlledStrategy(AAPL);
  harness = await startPaperHarness({ strategies: [control.strategy], candles: [wavingDays(20)] });
  await harness.step();
  return { h: harness, control };
}

/** Buys `quantity` at market and lets the next tick fill it. */
async function holdPosition(h: PaperHarness, control: ControlledStrategy, quantity: number): Promise<void> {
  control.emit((ctx) => ctx.buy(quantity));
  await h.settle();
  await h.step();
  expect(h.session.positions.quantity(AAPL).toFixed()).toBe(String(quantity));
}

describe('paper run under injected faults', () => {
  it('recovers a fill pushed while the trade connection was down, by reconciling once it is back', async () => {
    const { h, control } = await controlled();
    injectFaults(h.sim, { socketDropAfterPushes: 1 });
    const tradeDown = first(h.session.connections, (report) => report.connection === 'trade' && report.state.status === 'reconnecting');

    control.emit((ctx) => ctx.buy(10));
    await h.session.runtime.settled();
    const down = await tradeDown;
    injectFaults(h.sim, { socketDropAfterPushes: null });
    h.sim.replay.step();
    expect(h.sim.venue.orders().map((order) => order.status)).toEqual(['FilledStatus']);
    expect(h.ofType('fill')).toEqual([]);
    await h.clock.advanceByAsync(down.state.status === 'reconnecting' ? down.state.retryInMs : 0);
    await h.until(() => h.ofType('fill').length === 1, 'the fill to be found by reconciliation');

    const changes = h.journal<{ to_status: string; source: string }>('SELECT to_status, source FROM order_states ORDER BY id');
    expect(changes.at(-1)).toEqual({ to_status: 'FilledStatus', source: 'query' });
    expectConsistent(h, AAPL);
  });

  it('after an HTTP 500 on submit, looks the order up instead of sending it again; reconciliation settles it as never placed', async () => {
    const { h, control } = await controlled();
    await holdPosition(h, control, 10);
    injectFaults(h.sim, { http5xxRate: 1 });

    control.emit((ctx) => ctx.close());
    // The submit and the first lookup fail; the lookups after one and two seconds find nothing.
    await h.untilTimerAt(h.clock.now() + 1_000);
    injectFaults(h.sim, { http5xxRate: 0 });
    await h.clock.advanceByAsync(1_000);
    await h.untilTimerAt(h.clock.now() + 2_000);
    await h.clock.advanceByAsync(2_000);
    await h.session.runtime.settled();
    expect(h.ofType('order-unconfirmed').map((event) => event.reason)).toEqual([
      expect.stringMatching(/^submit failed \(internal error .*the lookup failed too/),
    ]);
    await h.session.runtime.reconcileNow();

    expect(h.ofType('reconciliation-mismatch').map((event) => event.kind)).toEqual(['missing-order']);
    expect(h.sim.venue.orders().map((order) => order.side)).toEqual(['Buy']);
    control.emit((ctx) => ctx.close());
    await h.settle();
    await h.step();
    expect(h.sim.venue.orders().map((order) => order.side)).toEqual(['Buy', 'Sell']);
    expect(h.session.report().findings.map((finding) => finding.kind)).toEqual(['missing-order']);
    expectConsistent(h, AAPL);
  });

  it('after a plain-text 429 on submit, never repeats the submission; the lookup (a read, retried) settles it', async () => {
    const { h, control } = await controlled();
    await holdPosition(h, control, 10);
    injectFaults(h.sim, { http429Rate: 1 });

    control.emit((ctx) => ctx.close());
    // The submit is refused once and not repeated; the lookup, a read, is retried after 100 ms.
    await h.untilTimerAt(h.clock.now() + 100);
    injectFaults(h.sim, { http429Rate: 0 });
    await h.clock.advanceByAsync(100);
    await h.untilTimerAt(h.clock.now() + 1_000);
    await h.clock.advanceByAsync(1_000);
    await h.untilTimerAt(h.clock.now() + 2_000);
    await h.clock.advanceByAsync(2_000);
    await h.session.runtime.settled();

    expect(h.ofType('denial').map((event) => event.denial.code)).toEqual(['SUBMIT_FAILED']);
    expect(h.sim.venue.orders().map((order) => order.side)).toEqual(['Buy']);
    expectConsistent(h, AAPL);
  });

  it('when the submit answer is lost but the order landed, finds it instead of sending a duplicate, and books its fill', async () => {
    const { h, control } = await controlled();
    // The answer to the submit is held back a minute (past the 10 s timeouts); everything else is prompt.
    const off = h.sim.venue.onOrderUpdate(() => {
      injectFaults(h.sim, { latencyMs: 60_000 });
      setImmediate(() => injectFaults(h.sim, { latencyMs: 0 }));
    });

    control.emit((ctx) => ctx.buy(10));
    await h.until(() => h.ofType('order-updated').some((event) => event.status === 'NewStatus'), 'the acceptance push');
    off();
    expect(h.session.runtime.busy).toBe(true);
    await h.clock.advanceByAsync(10_000);
    await h.session.runtime.settled();
    await h.step();

    expect(h.ofType('order-unconfirmed')).toEqual([]);
    expect(h.ofType('denial')).toEqual([]);
    expect(h.sim.venue.orders().map((order) => [order.side, order.status])).toEqual([['Buy', 'FilledStatus']]);
    expect(h.ofType('fill').map((event) => event.fill.quantity.toFixed())).toEqual(['10']);
    expectConsistent(h, AAPL);
  });

  it('counts orders still working when target() and close() repeat while order pushes are lost: no second order', async () => {
    const { h, control } = await controlled();
    injectFaults(h.sim, { pushDropRate: 1 });

    for (let bar = 0; bar < 3; bar++) {
      control.emit((ctx) => ctx.target(10));
      await h.session.runtime.settled();
      h.sim.replay.step();
    }
    expect(h.sim.venue.positions([AAPL]).map((position) => position.quantity.toFixed())).toEqual(['10']);
    injectFaults(h.sim, { pushDropRate: 0 });
    await h.session.runtime.reconcileNow();
    // Past the day's close tick: a market order sent there would expire with the day.
    h.sim.replay.step();
    for (let bar = 0; bar < 3; bar++) {
      injectFaults(h.sim, { pushDropRate: 1 });
      control.emit((ctx) => ctx.close());
      await h.session.runtime.settled();
      h.sim.replay.step();
    }
    injectFaults(h.sim, { pushDropRate: 0 });
    await h.session.runtime.reconcileNow();

    expect(h.sim.venue.orders().map((order) => [order.side, order.quantity.toFixed(), order.status])).toEqual([
      ['Buy', '10', 'FilledStatus'],
      ['Sell', '10', 'FilledStatus'],
    ]);
    expect(h.ofType('intent-skipped').map((event) => event.reason)).toEqual([
      'already at 10 AAPL.US counting 10 in working orders',
      'already at 10 AAPL.US counting 10 in working orders',
      'already flat in AAPL.US counting -10 in working orders',
      'already flat in AAPL.US counting -10 in working orders',
    ]);
    expectConsistent(h, AAPL);
  });

  it('applies duplicated and out-of-order pushes once, in the right order, through a whole strategy run with partial fills', async () => {
    const strategy = prepareStrategy(smaCrossover, { symbols: [AAPL], params: { fast: 3, slow: 6, quantity: 100 } });
    harness = await startPaperHarness({
      strategies: [strategy],
      candles: [wavingDays(60)],
      faults: { pushDuplicateRate: 1, pushReorderRate: 0.3, partialFillRate: 0.5 },
    });
    const h = harness;
    const received: OrderUpdate[] = [];
    h.session.link.broker.orderUpdates.subscribe((update) => received.push(update));

    await h.stepAll();
    // A push held back behind the last one may never come: the periodic pass settles what is left.
    await h.session.runtime.reconcileNow();

    const venueOrders = h.sim.venue.orders();
    expect(venueOrders.length).toBeGreaterThanOrEqual(4);
    expect(h.sim.venue.executions().length).toBeGreaterThan(venueOrders.length);
    const outOfOrder = venueOrders.some((order) => {
      const seen = received.filter((update) => update.orderId === order.orderId).map((update) => update.executedQuantity.toNumber());
      return seen.some((quantity, index) => index > 0 && quantity < seen[index - 1]!);
    });
    expect(received.length, 'every push arrived twice or more').toBeGreaterThan(venueOrders.length * 2);
    expect(outOfOrder, 'some order saw an older state after a newer one').toBe(true);
    expectConsistent(h, AAPL);
  });
});
