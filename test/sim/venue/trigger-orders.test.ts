import { describe, expect, it } from 'vitest';
import { f, p, dayBar, Harness, HK, order } from './fixtures.js';

const D1 = dayBar(HK, '2024-01-02', 10, 11, 9, 10.5);
const D2 = dayBar(HK, '2024-01-03', 10.5, 10.6, 10.4, 10.5);
// Opens at 10.6; the high (11) is nearer the open than the low (9.8).
const FALLING = dayBar(HK, '2024-01-04', 10.6, 11, 9.8, 10.2);

function holding100(settings = {}): Harness {
  const sim = new Harness(settings).bar(D1);
  sim.venue.submit(order(HK, 'Buy', 100));
  return sim.bar(D2);
}

describe('market-if-touched and limit-if-touched orders', () => {
  it('triggers a sell MIT when the bar crosses its trigger and fills at the trigger price', () => {
    const sim = holding100({ slippageBps: 10 });
    const stop = sim.venue.submit(order(HK, 'Sell', 100, { orderType: 'MIT', triggerPrice: p(10), timeInForce: 'GTC' }));
    expect(stop.triggerStatus).toBe('ACTIVE');

    sim.bar(FALLING);

    const finished = sim.venue.order(stop.orderId);
    expect(finished.executedPrice!.toFixed()).toBe('9.99');
    expect(finished.triggerStatus).toBe('RELEASED');
    expect(finished.triggerAt).toBe(FALLING.time);
  });

  it('fills a triggered order at the open when the bar gaps through the trigger', () => {
    const sim = holding100();
    const stop = sim.venue.submit(order(HK, 'Sell', 100, { orderType: 'MIT', triggerPrice: p(10), timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-04', 9.5, 9.7, 9.2, 9.6));

    expect(sim.venue.order(stop.orderId).executedPrice!.toFixed()).toBe('9.5');
  });

  it('fills a touched order the same way under the close fill model', () => {
    const sim = holding100({ fillModel: 'close', fees: { commissionRate: 0.001 } });
    const stop = sim.venue.submit(order(HK, 'Sell', 100, { orderType: 'MIT', triggerPrice: p(10), timeInForce: 'GTC' }));
    expect(sim.venue.order(stop.orderId).executedQuantity.toFixed()).toBe('0');

    sim.bar(FALLING);

    const [fill] = sim.fillsOf(stop.orderId);
    expect(fill!.lastPrice!.toFixed()).toBe('10');
    expect(fill!.lastFee!.toFixed()).toBe('1');
    expect(fill!.updatedAt).toBe(FALLING.time);
  });

  it('leaves an untouched trigger order working', () => {
    const sim = holding100();
    const stop = sim.venue.submit(order(HK, 'Sell', 100, { orderType: 'MIT', triggerPrice: p(9), timeInForce: 'GTC' }));

    sim.bar(FALLING);

    expect(sim.venue.order(stop.orderId).status).toBe('NewStatus');
    expect(sim.venue.order(stop.orderId).triggerStatus).toBe('ACTIVE');
  });

  it('triggers a buy MIT above the market when the price rises to it', () => {
    const sim = new Harness().bar(D1);
    const breakout = sim.venue.submit(order(HK, 'Buy', 100, { orderType: 'MIT', triggerPrice: p(10.9) }));

    sim.bar(FALLING);

    expect(sim.venue.order(breakout.orderId).executedPrice!.toFixed()).toBe('10.9');
  });

  it('decides a limit-if-touched fill by the intrabar path: high first misses the limit, low first reaches it', () => {
    // Trigger 10 (below the 10.5 mark), then sell at 10.8 or better.
    const request = order(HK, 'Sell', 100, { orderType: 'LIT', triggerPrice: p(10), price: p(10.8), timeInForce: 'GTC' });

    const highFirst = holding100({ intrabarPath: 'high-first' });
    const a = highFirst.venue.submit(request);
    highFirst.bar(FALLING);
    const lowFirst = holding100({ intrabarPath: 'low-first' });
    const b = lowFirst.venue.submit(request);
    lowFirst.bar(FALLING);

    expect(highFirst.venue.order(a.orderId).executedQuantity.toFixed()).toBe('0');
    expect(highFirst.venue.order(a.orderId).triggerStatus).toBe('RELEASED');
    expect(lowFirst.venue.order(b.orderId).executedPrice!.toFixed()).toBe('10.8');
  });

  it('goes open → nearer extreme first by default (here: high first)', () => {
    const sim = holding100();
    const placed = sim.venue.submit(order(HK, 'Sell', 100, { orderType: 'LIT', triggerPrice: p(10), price: p(10.8), timeInForce: 'GTC' }));

    sim.bar(FALLING);
    expect(sim.venue.order(placed.orderId).executedQuantity.toFixed()).toBe('0');
    // Once triggered it works as a limit order on later bars.
    sim.bar(dayBar(HK, '2024-01-05', 10.3, 10.9, 10.2, 10.7));
    expect(sim.venue.order(placed.orderId).executedPrice!.toFixed()).toBe('10.8');
  });

  it('fills a triggered buy LIT at the trigger price when that is within its limit', () => {
    const sim = new Harness().bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { orderType: 'LIT', triggerPrice: p(10), price: p(10.1) }));

    sim.bar(FALLING);

    expect(sim.venue.order(placed.orderId).executedPrice!.toFixed()).toBe('10');
  });
});

describe('trailing stop orders', () => {
  it('trails the highs by an amount and fills once the price falls back to the stop', () => {
    const sim = holding100();
    const trail = sim.venue.submit(
      order(HK, 'Sell', 100, { orderType: 'TSLPAMT', trailingAmount: p(1), limitOffset: p(0.1), timeInForce: 'GTC' }),
    );

    sim.bar(dayBar(HK, '2024-01-04', 10.6, 12, 10.4, 11.8)); // stop 9.5 untouched; highest 12
    expect(sim.venue.order(trail.orderId).executedQuantity.toFixed()).toBe('0');
    sim.bar(dayBar(HK, '2024-01-05', 11.5, 11.6, 10.5, 10.7)); // stop 11 reached on the way down

    const finished = sim.venue.order(trail.orderId);
    expect(finished.triggerPrice!.toFixed()).toBe('11');
    expect(finished.price!.toFixed()).toBe('10.9');
    expect(finished.executedPrice!.toFixed()).toBe('11');
  });

  it("trails a bar's high reached before its low, as the replay's ticks do, and not when the low comes first", () => {
    const trailing = () => order(HK, 'Sell', 100, { orderType: 'TSLPAMT', trailingAmount: p(1), limitOffset: p(0), timeInForce: 'GTC' });
    // FALLING: open 10.6 → high 11 → low 9.8 → close 10.2 (the high is nearer the open). The stop starts at
    // 10.5 − 1 = 9.5, trails to 11 − 1 = 10 at the high, and the way down to 9.8 crosses it.
    const highFirst = holding100();
    const first = highFirst.venue.submit(trailing());
    highFirst.bar(FALLING);
    expect(highFirst.venue.order(first.orderId)).toMatchObject({ status: 'FilledStatus' });
    expect(highFirst.venue.order(first.orderId).executedPrice!.toFixed()).toBe('10');
    expect(highFirst.venue.order(first.orderId).triggerPrice!.toFixed()).toBe('10');

    // Low first: 10.6 → 9.8 (stop 9.6) → 11 → 10.2 (stop 10): never reached.
    const lowFirst = holding100({ intrabarPath: 'low-first' });
    const second = lowFirst.venue.submit(trailing());
    lowFirst.bar(FALLING);
    expect(lowFirst.venue.order(second.orderId).executedQuantity.toFixed()).toBe('0');
  });

  it('triggers a trailing stop on the way from the second extreme to the close', () => {
    const sim = holding100();
    const trail = sim.venue.submit(
      order(HK, 'Sell', 100, { orderType: 'TSLPAMT', trailingAmount: p(1), limitOffset: p(0.1), timeInForce: 'GTC' }),
    );

    sim.bar(dayBar(HK, '2024-01-04', 10.6, 12, 10.5, 10.8)); // 10.6 → 10.5 → 12 (stop 11) → 10.8

    const finished = sim.venue.order(trail.orderId);
    expect([finished.triggerPrice!.toFixed(), finished.price!.toFixed(), finished.executedPrice!.toFixed()]).toEqual(['11', '10.9', '11']);
  });

  it('trails by a percentage', () => {
    const sim = holding100();
    const trail = sim.venue.submit(
      order(HK, 'Sell', 100, { orderType: 'TSLPPCT', trailingPercent: f(10), limitOffset: p(0), timeInForce: 'GTC' }),
    );

    sim.bar(dayBar(HK, '2024-01-04', 10.6, 12, 10.6, 11.8)); // stop 9.45 untouched; highest 12
    sim.bar(dayBar(HK, '2024-01-05', 11, 11.2, 10.5, 10.6)); // stop 10.8

    expect(sim.venue.order(trail.orderId).executedPrice!.toFixed()).toBe('10.8');
  });
});
