// Reconciliation at a market day's start over the stub broker: once per market day, only while the book
// holds something in that market, ahead of the intents emitted after the day's first quote, and reading
// only the positions and balances unless an order of ours is open.
import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../src/domain/symbol.js';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { startsRuntimes, testRuntime } from '../support/execution/runtime-setup.js';
import { quoteOf } from '../support/socket/quote-fixtures.js';

const AAPL = parseSymbol('AAPL.US');
// 10:00 in New York on two market days.
const DAY_ONE = Date.UTC(2024, 0, 10, 15, 0);
const DAY_TWO = Date.UTC(2024, 0, 11, 15, 0);
const HOUR_MS = 3_600_000;

const start = startsRuntimes();

describe('reconciliation at the start of a market day', () => {
  it('reads the positions and balances once per market day held, and an intent emitted at the first quote waits for them', async () => {
    const manual = manualStrategy();
    const setup = testRuntime([manual.strategy], { reconcileIntervalMs: 30_000 });
    setup.broker.setPosition(AAPL, 100, 10);
    await start(setup);
    const { broker, marketData, runtime } = setup;
    const startCalls = { ...broker.calls };
    expect(startCalls.positions).toBe(1);

    marketData.pushQuote(quoteOf(AAPL, '10', DAY_ONE, 100));
    marketData.pushQuote(quoteOf(AAPL, '10', DAY_ONE + HOUR_MS, 200));
    await runtime.settled();
    expect(broker.calls.positions).toBe(2);

    // A 3-for-2 split booked overnight; the protocol pushes nothing about it.
    broker.setPosition(AAPL, 150, 6.67);
    marketData.pushQuote(quoteOf(AAPL, '6.7', DAY_TWO, 100));
    manual.emit((ctx) => ctx.target(0));
    await runtime.settled();

    expect(broker.calls).toMatchObject({
      positions: 3,
      accountBalance: startCalls.accountBalance + 2,
      todayOrders: startCalls.todayOrders,
    });
    expect(broker.submitted.map((request) => `${request.side} ${request.quantity.toFixed()}`)).toEqual(['Sell 150']);
  });

  it("with an order of ours open, takes the day's positions from a full pass (orders read before and after)", async () => {
    const manual = manualStrategy();
    const setup = testRuntime([manual.strategy], { reconcileIntervalMs: 30_000 });
    setup.broker.setPosition(AAPL, 100, 10);
    await start(setup);
    const { broker, marketData, runtime } = setup;
    marketData.pushQuote(quoteOf(AAPL, '10', DAY_ONE, 100));
    manual.emit((ctx) => ctx.buy(10, { price: 5 }));
    await runtime.settled();
    const before = { ...broker.calls };

    broker.setPosition(AAPL, 150, 6.67);
    marketData.pushQuote(quoteOf(AAPL, '6.7', DAY_TWO, 100));
    await runtime.settled();

    expect(broker.calls).toMatchObject({ positions: before.positions + 1, todayOrders: before.todayOrders + 2 });
    expect(runtime.positions.quantity(AAPL).toFixed()).toBe('150');
  });

  it('does not read the positions at day starts while it holds nothing', async () => {
    const setup = await start(testRuntime([manualStrategy().strategy], { reconcileIntervalMs: 30_000 }));

    setup.marketData.pushQuote(quoteOf(AAPL, '10', DAY_ONE, 100));
    setup.marketData.pushQuote(quoteOf(AAPL, '10', DAY_TWO, 100));
    await setup.runtime.settled();

    expect(setup.broker.calls.positions).toBe(1);
  });
});
