import { describe, expect, it } from 'vitest';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { startsRuntimes, testRuntime } from '../support/execution/runtime-setup.js';

const started = startsRuntimes();

// One strategy, one working limit order SO1 for 100 AAPL.US, pushes held by the stub until released.
async function withWorkingOrder(options: Parameters<typeof testRuntime>[1] = {}) {
  const manual = manualStrategy();
  const setup = await started(testRuntime([manual.strategy], options));
  setup.broker.holdPushes = true;
  manual.emit((ctx) => ctx.buy(100, { price: 10 }));
  await setup.runtime.settled();
  setup.broker.releaseHeld();
  setup.broker.holdPushes = true;
  const updates: string[] = [];
  manual
    .context()
    .orderUpdates.subscribe((update) =>
      updates.push(
        `${update.status} ${update.executedQuantity.toFixed()}${update.fill ? ` fill ${update.fill.quantity.toFixed()}@${update.fill.price.toFixed()}` : ''}`,
      ),
    );
  return { ...setup, manual, updates, symbol: manual.context().symbol };
}

describe('order tracking', () => {
  it('derives each fill once from duplicated pushes', async () => {
    const { broker, runtime, updates, ofType, symbol } = await withWorkingOrder();
    broker.fill('SO1', 40, 10);
    broker.fill('SO1', 60, 10.5);

    broker.releaseHeld('duplicated');

    expect(ofType('fill').map((event) => `${event.fill.quantity.toFixed()}@${event.fill.price.toFixed()}`)).toEqual(['40@10', '60@10.5']);
    expect(runtime.positions.quantity(symbol).toFixed()).toBe('100');
    expect(runtime.positions.get(symbol)?.averageCost.toFixed()).toBe('10.3');
    expect(updates).toEqual(['PartialFilledStatus 40 fill 40@10', 'FilledStatus 100 fill 60@10.5']);
  });

  it('applies pushes arriving out of order without double fills or a status going back', async () => {
    const { broker, runtime, updates, ofType, symbol } = await withWorkingOrder();
    broker.fill('SO1', 40, 10);
    broker.fill('SO1', 60, 10.5);

    broker.releaseHeld('reversed');

    // The final report arrives first: one fill of 100 at its average price; the stale partial adds nothing.
    expect(ofType('fill').map((event) => `${event.fill.quantity.toFixed()}@${event.fill.price.toFixed()}`)).toEqual(['100@10.3']);
    expect(runtime.positions.quantity(symbol).toFixed()).toBe('100');
    expect(updates).toEqual(['FilledStatus 100 fill 100@10.3']);
    expect(runtime.summary().openOrders).toBe(0);
  });

  it('ignores a stale status after a newer one', async () => {
    const { broker, ofType, updates } = await withWorkingOrder();
    broker.cancel('SO1');
    broker.releaseHeld();
    const cancelled = broker.allOrders()[0]!;

    broker.push({ ...cancelled, status: 'NewStatus', lastShare: undefined, lastPrice: undefined, accountNo: 'STUB1' });

    expect(updates).toEqual(['CanceledStatus 0']);
    expect(ofType('order-updated').map((event) => event.status)).toEqual(['NewStatus', 'CanceledStatus']);
  });

  it('recovers fills and statuses from the periodic query when pushes are lost', async () => {
    const { broker, clock, runtime, ofType, symbol } = await withWorkingOrder({ reconcileIntervalMs: 10_000 });
    broker.fill('SO1', 30, 10);
    broker.cancel('SO1');
    broker.held.splice(0);

    await clock.advanceByAsync(10_000);

    expect(ofType('fill')).toMatchObject([{ fill: { fillId: 'SO1:30' } }]);
    expect(ofType('order-updated').at(-1)).toMatchObject({ status: 'PartialWithdrawal', source: 'query' });
    expect(runtime.positions.quantity(symbol).toFixed()).toBe('30');
    expect(ofType('reconciliation-mismatch')).toEqual([]);
  });

  it('reports an order it did not place once, and leaves it alone', async () => {
    const { broker, ofType, runtime } = await withWorkingOrder();
    broker.holdPushes = false;
    const foreign = broker.placeForeign({
      symbol: broker.allOrders()[0]!.symbol,
      side: 'Sell',
      orderType: 'LO',
      quantity: broker.allOrders()[0]!.quantity,
      price: broker.allOrders()[0]!.price!,
      timeInForce: 'Day',
    });

    broker.fill(foreign.orderId, 10, 11);

    expect(ofType('reconciliation-mismatch')).toMatchObject([
      { kind: 'unknown-order', details: { orderId: foreign.orderId, status: 'NewStatus', remark: '' } },
    ]);
    expect(runtime.summary().openOrders).toBe(1);
  });
});
