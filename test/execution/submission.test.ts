import { describe, expect, it } from 'vitest';
import { CLIENT_CLOSED, TraderError } from '../../src/domain/errors.js';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { startsRuntimes, testRuntime } from '../support/execution/runtime-setup.js';
import { waitUntil } from '../support/schedule/wait.js';

describe('order submission', () => {
  const started = startsRuntimes();

  it('sends each approved order once, with a client order id in the remark', async () => {
    const manual = manualStrategy();
    const { broker, runtime } = await started(testRuntime([manual.strategy]));

    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));
    expect(runtime.busy).toBe(true);
    await runtime.settled();

    expect(broker.submitted).toHaveLength(1);
    expect(broker.submitted[0]).toMatchObject({ symbol: 'AAPL.US', side: 'Buy', orderType: 'LO', timeInForce: 'Day' });
    expect(broker.submitted[0]?.remark).toMatch(/^lt-[0-9a-z]+-1$/);
    expect(runtime.busy).toBe(false);
  });

  it('looks a lost submit response up by remark instead of sending the order again', async () => {
    const manual = manualStrategy();
    const setup = await started(testRuntime([manual.strategy]));
    setup.broker.holdPushes = true;
    setup.broker.planSubmits('lose-response');

    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));
    await setup.runtime.settled();
    setup.broker.fill('SO1', 100, 187.5);
    setup.broker.releaseHeld();

    expect(setup.broker.calls.submitOrder).toBe(1);
    expect(setup.ofType('denial')).toEqual([]);
    expect(setup.ofType('order-updated').at(-1)).toMatchObject({ orderId: 'SO1', status: 'FilledStatus' });
    expect(setup.runtime.positions.quantity(manual.context().symbol).toFixed()).toBe('100');
  });

  it('gives up on a hung submit after the request timeout and finds the order by remark', async () => {
    const manual = manualStrategy();
    const setup = await started(testRuntime([manual.strategy], { requestTimeoutMs: 5_000 }));
    setup.broker.holdPushes = true;
    setup.broker.planSubmits('hang');

    manual.emit((ctx) => ctx.buy(10, { price: 50 }));
    const settled = setup.runtime.settled();
    await setup.clock.advanceByAsync(4_999);
    expect(setup.runtime.busy).toBe(true);
    await setup.clock.advanceByAsync(1);
    await settled;

    expect(setup.broker.calls.submitOrder).toBe(1);
    expect(setup.ofType('order-updated')).toMatchObject([{ source: 'lookup', orderId: 'SO1', from: 'NotReported', status: 'NewStatus' }]);
  });

  it('takes the order id from a push that beat the lost response', async () => {
    const manual = manualStrategy();
    const setup = await started(testRuntime([manual.strategy]));
    setup.broker.planSubmits('lose-response');

    manual.emit((ctx) => ctx.buy(10, { price: 50 }));
    await setup.runtime.settled();

    expect(setup.broker.calls.submitOrder).toBe(1);
    expect(setup.broker.calls.todayOrders).toBe(2); // the start-up reconciliation only: no lookup needed
    expect(setup.ofType('order-updated')).toMatchObject([{ source: 'push', orderId: 'SO1', status: 'NewStatus' }]);
  });

  it('reports SUBMIT_FAILED when the order never reached the venue and every lookup says so', async () => {
    const manual = manualStrategy();
    const setup = await started(testRuntime([manual.strategy], { lookupAttempts: 3, lookupDelayMs: 1_000 }));
    const denials: string[] = [];
    manual.context().denials.subscribe((denial) => denials.push(denial.code));
    setup.broker.planSubmits('fail-before-venue');

    manual.emit((ctx) => ctx.buy(10, { price: 50 }));
    const settled = setup.runtime.settled();
    await setup.clock.advanceByAsync(3_000);
    await settled;

    expect(setup.broker.calls.submitOrder).toBe(1);
    expect(setup.broker.calls.todayOrders).toBe(2 + 3);
    expect(denials).toEqual(['SUBMIT_FAILED']);
    expect(setup.ofType('order-updated')).toMatchObject([{ status: 'RejectedStatus', source: 'lookup' }]);
  });

  it('reports REFUSED_BY_BROKER for a definite refusal, without lookups', async () => {
    const manual = manualStrategy();
    const setup = await started(testRuntime([manual.strategy]));
    setup.broker.planSubmits('refuse');

    manual.emit((ctx) => ctx.buy(10, { price: 50 }));
    await setup.runtime.settled();

    expect(setup.broker.calls.todayOrders).toBe(2);
    expect(setup.ofType('denial')).toMatchObject([
      { denial: { code: 'REFUSED_BY_BROKER', message: 'order refused: AAPL.US is not tradable' } },
    ]);
  });

  it('leaves an order unconfirmed when the lookups fail too, and settles it at the next reconciliation', async () => {
    const manual = manualStrategy();
    const setup = await started(testRuntime([manual.strategy], { lookupAttempts: 1, reconcileIntervalMs: 30_000 }));
    setup.broker.holdPushes = true;
    setup.broker.planSubmits('lose-response');
    setup.broker.failNext('todayOrders');

    manual.emit((ctx) => ctx.buy(10, { price: 50 }));
    await setup.runtime.settled();
    expect(setup.ofType('order-unconfirmed')).toHaveLength(1);
    expect(setup.runtime.summary().openOrders).toBe(1);

    await setup.clock.advanceByAsync(30_000);

    expect(setup.broker.calls.submitOrder).toBe(1);
    expect(setup.ofType('order-updated')).toMatchObject([{ source: 'query', orderId: 'SO1', status: 'NewStatus' }]);
  });

  it("stops looking a doubtful submit up once the broker's client is closed, leaving the order unconfirmed", async () => {
    const manual = manualStrategy();
    const setup = await started(testRuntime([manual.strategy], { lookupAttempts: 3, lookupDelayMs: 1_000 }));
    setup.broker.holdPushes = true;
    setup.broker.planSubmits('lose-response');
    for (let call = 0; call < 3; call++) setup.broker.failNext('todayOrders', new TraderError(CLIENT_CLOSED, 'client is closed'));

    manual.emit((ctx) => ctx.buy(10, { price: 50 }));
    // No time passes: a closed client answers no later lookup either, so none is waited for.
    await waitUntil(() => !setup.runtime.busy, 'the submission to settle');

    expect(setup.broker.calls.todayOrders).toBe(2 + 1);
    expect(setup.ofType('order-unconfirmed')).toHaveLength(1);
    expect(setup.runtime.summary().openOrders).toBe(1);
  });

  it('marks an unconfirmed order the broker never received as missing at the next reconciliation', async () => {
    const manual = manualStrategy();
    const setup = await started(testRuntime([manual.strategy], { lookupAttempts: 1, reconcileIntervalMs: 30_000 }));
    setup.broker.planSubmits('fail-before-venue');
    setup.broker.failNext('todayOrders');

    manual.emit((ctx) => ctx.buy(10, { price: 50 }));
    await setup.runtime.settled();
    await setup.clock.advanceByAsync(30_000);

    expect(setup.ofType('reconciliation-mismatch')).toMatchObject([{ kind: 'missing-order' }]);
    expect(setup.ofType('order-updated')).toMatchObject([{ status: 'RejectedStatus', source: 'query' }]);
    expect(setup.runtime.summary().openOrders).toBe(0);
  });
});
