import { describe, expect, it } from 'vitest';
import { p, dayBar, dayTime, Harness, HK, order } from './fixtures.js';

const D1 = dayBar(HK, '2024-01-02', 10, 11, 9, 10.5);
const D2 = dayBar(HK, '2024-01-03', 10.6, 11, 10, 10.8);
const D3 = dayBar(HK, '2024-01-04', 10.9, 11.2, 10.7, 11);

describe('market orders, next-open fill model', () => {
  it('fills a market order decided on bar t at bar t+1 open, with commission on the traded value', () => {
    const sim = new Harness({ fees: { commissionRate: 0.001 } }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100));
    expect(placed.status).toBe('NewStatus');
    expect(sim.fillsOf(placed.orderId)).toHaveLength(0);

    sim.bar(D2);

    const [fill] = sim.fillsOf(placed.orderId);
    expect(fill!.lastPrice!.toFixed()).toBe('10.6');
    expect(fill!.lastShare!.toFixed()).toBe('100');
    expect(fill!.lastFee!.toFixed()).toBe('1.06');
    expect(fill!.updatedAt).toBe(dayTime(HK, '2024-01-03'));
    expect(fill!.status).toBe('FilledStatus');
    expect(sim.cash()).toBe('998938.94');
    expect(sim.venue.executions()[0]!.commission.toFixed()).toBe('1.06');
  });

  it('sells at the next open and books the proceeds net of commission', () => {
    const sim = new Harness({ fees: { commissionRate: 0.001 } }).bar(D1);
    sim.venue.submit(order(HK, 'Buy', 100));
    sim.bar(D2);
    const sell = sim.venue.submit(order(HK, 'Sell', 100));
    sim.bar(D3);

    const [fill] = sim.fillsOf(sell.orderId);
    expect(fill!.lastPrice!.toFixed()).toBe('10.9');
    expect(fill!.lastFee!.toFixed()).toBe('1.09');
    // 1,000,000 − 1060 − 1.06 + 1090 − 1.09
    expect(sim.cash()).toBe('1000027.85');
    expect(sim.venue.positions()).toHaveLength(0);
  });

  it('moves market fills against the order by the slippage', () => {
    const sim = new Harness({ slippageBps: 10 }).bar(D1);
    const buy = sim.venue.submit(order(HK, 'Buy', 100));
    sim.bar(D2);
    const sell = sim.venue.submit(order(HK, 'Sell', 100));
    sim.bar(D3);

    expect(sim.fillsOf(buy.orderId)[0]!.lastPrice!.toFixed()).toBe('10.6106');
    expect(sim.fillsOf(sell.orderId)[0]!.lastPrice!.toFixed()).toBe('10.8891');
  });

  it('never fills an order that is still open after the last bar', () => {
    const sim = new Harness().bar(D1).bar(D2);
    const late = sim.venue.submit(order(HK, 'Buy', 100, { timeInForce: 'GTC' }));

    expect(sim.venue.order(late.orderId).status).toBe('NewStatus');
    expect(sim.venue.executions()).toHaveLength(0);
  });
});

describe('market orders, close fill model', () => {
  it('fills at the deciding bar close as soon as it is submitted', () => {
    const sim = new Harness({ fillModel: 'close', fees: { commissionRate: 0.001 } }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100));

    expect(placed.status).toBe('FilledStatus');
    const [fill] = sim.fillsOf(placed.orderId);
    expect(fill!.lastPrice!.toFixed()).toBe('10.5');
    expect(fill!.lastFee!.toFixed()).toBe('1.05');
    expect(sim.cash()).toBe('998948.95');
  });

  it('applies slippage to close fills', () => {
    const sim = new Harness({ fillModel: 'close', slippageBps: 20 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100));

    expect(placed.executedPrice!.toFixed()).toBe('10.521');
  });

  it('leaves limit orders to later bars, as in the next-open model', () => {
    const sim = new Harness({ fillModel: 'close' }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10.2) }));
    expect(placed.status).toBe('NewStatus');

    sim.bar(D2);

    const [fill] = sim.fillsOf(placed.orderId);
    expect(fill!.lastPrice!.toFixed()).toBe('10.2');
    expect(fill!.updatedAt).toBe(dayTime(HK, '2024-01-03'));
  });
});
