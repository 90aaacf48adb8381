import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { START, startsRuntimes, testRuntime, type TestRuntime } from '../support/execution/runtime-setup.js';
import { StubBroker } from '../support/execution/stub-broker.js';

describe('a broker that answers at once', () => {
  const started = startsRuntimes();
  const startedAtOnce = (strategy: ReturnType<typeof manualStrategy>): Promise<TestRuntime> => {
    const clock = new VirtualClock(START);
    return started(testRuntime([strategy.strategy], { clock, broker: new StubBroker(clock, { answersAtOnce: true }) }));
  };

  it('takes fresh figures and places an order in the turn it was emitted', async () => {
    const manual = manualStrategy();
    const setup = await startedAtOnce(manual);
    const before = { ...setup.broker.calls };

    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));

    expect(setup.runtime.busy).toBe(false);
    expect(setup.broker.submitted).toHaveLength(1);
    expect(setup.ofType('order-updated').at(-1)).toMatchObject({ orderId: 'SO1', status: 'NewStatus' });
    const { calls } = setup.broker;
    expect([
      calls.accountBalance - before.accountBalance,
      calls.estimateBuyLimit - before.estimateBuyLimit,
      calls.marginRatio - before.marginRatio,
    ]).toEqual([1, 1, 1]);
  });

  it("denies an order refused at once, naming the venue's reason", async () => {
    const manual = manualStrategy();
    const setup = await startedAtOnce(manual);
    setup.broker.planSubmits('refuse');

    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));

    expect(setup.ofType('denial')).toMatchObject([
      { denial: { code: 'REFUSED_BY_BROKER', message: 'order refused: AAPL.US is not tradable' } },
    ]);
  });

  it('looks an order up by remark when a submit answered at once fails without a refusal', async () => {
    const manual = manualStrategy();
    const setup = await startedAtOnce(manual);
    setup.broker.holdPushes = true;
    setup.broker.planSubmits('lose-response');

    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));
    expect(setup.runtime.busy).toBe(true);
    await setup.runtime.settled();
    setup.broker.fill('SO1', 100, 187.5);
    setup.broker.releaseHeld();

    expect(setup.broker.calls.submitOrder).toBe(1);
    expect(setup.broker.calls.todayOrders).toBeGreaterThan(0);
    expect(setup.ofType('denial')).toEqual([]);
    expect(setup.runtime.positions.quantity(manual.context().symbol).toFixed()).toBe('100');
  });

  it('denies an opening order when the risk figures fail, naming the failure', async () => {
    const manual = manualStrategy();
    const setup = await startedAtOnce(manual);
    setup.broker.failNext('estimateBuyLimit');

    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));

    expect(setup.broker.submitted).toEqual([]);
    expect(setup.ofType('denial')).toMatchObject([
      {
        denial: {
          code: 'RISK_DATA_UNAVAILABLE',
          message: 'no fresh account, buy limit, margin ratio from the broker: order not sent (estimateBuyLimit: 503 Service Unavailable)',
        },
      },
    ]);
  });

  it('decides each order on its own figures: a failed fetch before it leaves nothing behind', async () => {
    const manual = manualStrategy();
    const setup = await startedAtOnce(manual);
    setup.broker.failNext('estimateBuyLimit');
    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));

    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));

    expect(setup.ofType('denial').map((event) => event.denial.code)).toEqual(['RISK_DATA_UNAVAILABLE']);
    expect(setup.broker.submitted).toHaveLength(1);
  });
});
