import { describe, expect, it } from 'vitest';
import { BacktestBroker } from '../../src/backtest/broker.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import type { OrderUpdate } from '../../src/domain/order.js';
import { parseSymbol } from '../../src/domain/symbol.js';
import { OrderRefusedError } from '../../src/execution/broker.js';
import { Venue } from '../../src/sim/venue/venue.js';
import { brokerContract, type BrokerContractHarness } from '../execution/broker-contract.js';
import { Price, Quantity } from '../../src/domain/index.js';

const SYMBOL = parseSymbol('AAPL.US');
const OTHER = parseSymbol('MSFT.US');
const START = Date.UTC(2024, 0, 2, 15);

function backtestBroker(cash: number, price: number): { broker: BacktestBroker; venue: Venue; clock: VirtualClock } {
  const clock = new VirtualClock(START);
  const venue = new Venue({ clock, settings: { cash: { USD: String(cash) } } });
  for (const symbol of [SYMBOL, OTHER]) venue.onTick(symbol, price, 1_000_000, clock.now());
  return { broker: new BacktestBroker(venue), venue, clock };
}

brokerContract('backtest broker (in process, over the simulated venue)', async ({ cash, price }): Promise<BrokerContractHarness> => {
  const { broker, venue, clock } = backtestBroker(cash, price);
  return {
    broker,
    symbol: SYMBOL,
    otherSymbol: OTHER,
    async trade(next) {
      clock.advanceBy(60_000);
      venue.onTick(SYMBOL, next, 1_000_000, clock.now());
    },
    settle: async () => undefined,
    async close() {
      broker.close();
    },
  };
});

describe('backtest broker', () => {
  it("refuses an order the venue rejects with OrderRefusedError carrying the venue's reason", async () => {
    const { broker } = backtestBroker(1_000, 100);

    const refusal = broker.submitOrder({
      symbol: SYMBOL,
      side: 'Buy',
      orderType: 'LO',
      quantity: Quantity.of(100),
      price: Price.of(100),
      timeInForce: 'Day',
    });

    await expect(refusal).rejects.toBeInstanceOf(OrderRefusedError);
    await expect(refusal).rejects.toThrow(/insufficient buying power/);
  });

  it('pushes the acceptance before submitOrder resolves, so the runtime never waits for it', async () => {
    const { broker } = backtestBroker(100_000, 100);
    const seen: OrderUpdate[] = [];
    broker.orderUpdates.subscribe((update) => seen.push(update));

    const submitted = broker.submitOrder({
      symbol: SYMBOL,
      side: 'Buy',
      orderType: 'MO',
      quantity: Quantity.of(10),
      timeInForce: 'Day',
      remark: 'r1',
    });

    expect(seen.map((update) => [update.remark, update.status])).toEqual([['r1', 'NewStatus']]);
    expect((await submitted).orderId).toBe(seen[0]!.orderId);
  });

  it('answers at once what the asynchronous calls answer: the same risk figures, a refusal thrown as OrderRefusedError', async () => {
    const { broker } = backtestBroker(1_000, 100);
    const request = {
      symbol: SYMBOL,
      side: 'Buy',
      orderType: 'LO',
      quantity: Quantity.of(100),
      price: Price.of(100),
      timeInForce: 'Day',
    } as const;

    const figures = broker.immediate.riskFigures(request);

    expect(figures.balances).toEqual(await broker.accountBalance());
    expect(figures.buyLimit).toEqual(await broker.estimateBuyLimit({ symbol: SYMBOL, orderType: 'LO', side: 'Buy', price: Price.of(100) }));
    expect(figures.marginRatio).toEqual(await broker.marginRatio(SYMBOL));
    expect(() => broker.immediate.submit(request)).toThrow(OrderRefusedError);
  });

  it('places an order answered at once, its acceptance already pushed', () => {
    const { broker } = backtestBroker(100_000, 100);
    const seen: OrderUpdate[] = [];
    broker.orderUpdates.subscribe((update) => seen.push(update));

    const placed = broker.immediate.submit({
      symbol: SYMBOL,
      side: 'Buy',
      orderType: 'MO',
      quantity: Quantity.of(10),
      timeInForce: 'Day',
      remark: 'r1',
    });

    expect(seen.map((update) => [update.remark, update.status, update.orderId])).toEqual([['r1', 'NewStatus', placed.orderId]]);
  });

  it('completes the update stream when closed', () => {
    const { broker } = backtestBroker(100_000, 100);
    let completed = false;
    broker.orderUpdates.subscribe({ complete: () => (completed = true) });

    broker.close();

    expect(completed).toBe(true);
  });
});
