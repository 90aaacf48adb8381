import { describe, expect, it } from 'vitest';
import { p, dayBar, dayTime, Harness, HK, order } from './fixtures.js';

const D1 = dayBar(HK, '2024-01-02', 10, 11, 9, 10.5);

describe('limit orders', () => {
  it('fills a buy limit on the first later bar whose low reaches it, at the limit when the bar opens above it', () => {
    const sim = new Harness({ fees: { commissionRate: 0.001 } }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10.2), timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.3, 10.8));
    expect(sim.fillsOf(placed.orderId)).toHaveLength(0);
    sim.bar(dayBar(HK, '2024-01-04', 10.4, 10.5, 10, 10.1));

    const [fill] = sim.fillsOf(placed.orderId);
    expect(fill!.lastPrice!.toFixed()).toBe('10.2');
    expect(fill!.lastFee!.toFixed()).toBe('1.02');
    expect(fill!.updatedAt).toBe(dayTime(HK, '2024-01-04'));
  });

  it('fills the orders of one bar in the order its path reaches them, time priority among equals', () => {
    const sim = new Harness().bar(D1);
    // Opening at 10.5, nearer its high: the path goes 10.5 → 11 → 9 → 10, and meets 10.4 before 9.5.
    const deeper = sim.venue.submit(order(HK, 'Buy', 100, { price: p(9.5), timeInForce: 'GTC' }));
    const shallower = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10.4), timeInForce: 'GTC' }));
    const alsoShallower = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10.4), timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-03', 10.5, 11, 9, 10));

    const fills = sim.updates.filter((update) => update.lastShare !== undefined);
    expect(fills.map((fill) => [fill.orderId, fill.lastPrice!.toFixed()])).toEqual([
      [shallower.orderId, '10.4'],
      [alsoShallower.orderId, '10.4'],
      [deeper.orderId, '9.5'],
    ]);
  });

  it("fills at a limit written with trailing zeros at the price a report's text carries (10.20 fills at 10.2)", () => {
    const sim = new Harness().bar(D1);
    sim.venue.submit(order(HK, 'Buy', 100, { price: p('10.20'), timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-03', 10.4, 10.5, 10, 10.1));

    // The places a fill price has decide where positions round: here and in a client reading the report alike.
    const [fill] = sim.venue.executions();
    expect([fill!.price.toString(), fill!.price.precision]).toEqual(['10.2', 1]);
  });

  it('fills at the open when the bar opens through the limit (the better price)', () => {
    const sim = new Harness().bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10.2) }));

    sim.bar(dayBar(HK, '2024-01-03', 9.9, 10.1, 9.5, 10));

    expect(sim.fillsOf(placed.orderId)[0]!.lastPrice!.toFixed()).toBe('9.9');
  });

  it('fills a sell limit when the high reaches it, at the better of open and limit', () => {
    const sim = new Harness().bar(D1);
    sim.venue.submit(order(HK, 'Buy', 200));
    sim.bar(dayBar(HK, '2024-01-03', 10.5, 10.6, 10.4, 10.5));
    const atLimit = sim.venue.submit(order(HK, 'Sell', 100, { price: p(11), timeInForce: 'GTC' }));
    const atOpen = sim.venue.submit(order(HK, 'Sell', 100, { price: p(10.9), timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-04', 10.95, 11.3, 10.8, 11.1));

    expect(sim.fillsOf(atLimit.orderId)[0]!.lastPrice!.toFixed()).toBe('11');
    expect(sim.fillsOf(atOpen.orderId)[0]!.lastPrice!.toFixed()).toBe('10.95');
  });

  it('does not apply slippage beyond the limit on a fill at the open', () => {
    const sim = new Harness({ slippageBps: 100 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10) }));

    sim.bar(dayBar(HK, '2024-01-03', 9.95, 10.1, 9.9, 10));

    // 9.95 × 1.01 = 10.0495 would pass the limit; the order fills at its limit instead.
    expect(sim.fillsOf(placed.orderId)[0]!.lastPrice!.toFixed()).toBe('10');
  });

  it('treats an enhanced limit order (ELO) as a limit order', () => {
    const sim = new Harness().bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { orderType: 'ELO', price: p(10.2) }));

    sim.bar(dayBar(HK, '2024-01-03', 10.4, 10.5, 10, 10.1));

    expect(sim.fillsOf(placed.orderId)[0]!.lastPrice!.toFixed()).toBe('10.2');
  });

  it('fills an auction order at the next open and cancels what the auction could not fill', () => {
    const sim = new Harness({ volumeParticipation: 0.1 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 300, { orderType: 'AO' }));

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10, 10.8, 2000));

    const finished = sim.venue.order(placed.orderId);
    expect(finished.executedQuantity.toFixed()).toBe('200');
    expect(finished.executedPrice!.toFixed()).toBe('10.6');
    expect(finished.status).toBe('PartialWithdrawal');
    expect(sim.venue.accountBalance('HKD')[0]!.cashInfos[0]!.frozenCash.toFixed()).toBe('0');
  });
});
