import { describe, expect, it } from 'vitest';
import { p, dayBar, Harness, HK, order } from './fixtures.js';

const D1 = dayBar(HK, '2024-01-02', 10, 11, 9, 10.5, 1000);

describe('partial fills bounded by bar volume', () => {
  it('fills a market order across bars at most participation × volume per bar, with cumulative quantity and average price', () => {
    const sim = new Harness({ volumeParticipation: 0.1 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 120, { timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 500));
    sim.bar(dayBar(HK, '2024-01-04', 10.8, 11, 10.7, 10.9, 500));
    sim.bar(dayBar(HK, '2024-01-05', 11, 11.2, 10.9, 11.1, 300));

    const fills = sim.fillsOf(placed.orderId);
    expect(
      fills.map((fill) => [fill.lastShare!.toFixed(), fill.lastPrice!.toFixed(), fill.executedQuantity.toFixed(), fill.status]),
    ).toEqual([
      ['50', '10.6', '50', 'PartialFilledStatus'],
      ['50', '10.8', '100', 'PartialFilledStatus'],
      ['20', '11', '120', 'FilledStatus'],
    ]);
    // (50 × 10.6 + 50 × 10.8 + 20 × 11) / 120
    expect(sim.venue.order(placed.orderId).executedPrice!.toFixed()).toBe('10.75');
    expect(sim.venue.positions()[0]!.costPrice.toFixed()).toBe('10.75');
  });

  it('keeps a fill the volume cuts short to whole board lots, waiting for the next bar when less than a lot is left', () => {
    const sim = new Harness({ volumeParticipation: 1, instruments: { [HK]: { lotSize: 100, tick: '0.001' } } }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 300, { timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 150));
    sim.bar(dayBar(HK, '2024-01-04', 10.8, 11, 10.7, 10.9, 99));
    sim.bar(dayBar(HK, '2024-01-05', 11, 11.2, 10.9, 11.1, 1000));

    expect(sim.fillsOf(placed.orderId).map((fill) => [fill.lastShare!.toFixed(), fill.lastPrice!.toFixed()])).toEqual([
      ['100', '10.6'],
      ['200', '11'],
    ]);
    expect(sim.venue.positions()[0]!.quantity.toFixed()).toBe('300');
  });

  it("shares one bar's volume between orders in time priority", () => {
    const sim = new Harness({ volumeParticipation: 0.1 }).bar(D1);
    const first = sim.venue.submit(order(HK, 'Buy', 80, { timeInForce: 'GTC' }));
    const second = sim.venue.submit(order(HK, 'Buy', 80, { timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 1000));

    expect(sim.venue.order(first.orderId).executedQuantity.toFixed()).toBe('80');
    expect(sim.venue.order(second.orderId).executedQuantity.toFixed()).toBe('20');
  });

  it('does not cap fills on a bar that reports no volume', () => {
    const sim = new Harness({ volumeParticipation: 0.1 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 500));

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 0));

    expect(sim.venue.order(placed.orderId).status).toBe('FilledStatus');
  });

  it('fills a limit order partially over several bars while it stays reachable', () => {
    const sim = new Harness({ volumeParticipation: 0.5 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10.2), timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-03', 10.4, 10.5, 10.1, 10.3, 120));
    sim.bar(dayBar(HK, '2024-01-04', 10.6, 10.9, 10.5, 10.8, 120)); // limit not reached
    sim.bar(dayBar(HK, '2024-01-05', 10.1, 10.2, 10, 10.1, 120));

    expect(sim.fillsOf(placed.orderId).map((fill) => [fill.lastShare!.toFixed(), fill.lastPrice!.toFixed()])).toEqual([
      ['60', '10.2'],
      ['40', '10.1'],
    ]);
    expect(sim.venue.order(placed.orderId).executedPrice!.toFixed()).toBe('10.16');
  });

  it('charges per-order fee minimums once however the order fills', () => {
    const sim = new Harness({ volumeParticipation: 0.1, fees: 'hk-stock' }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { timeInForce: 'GTC' }));

    sim.bar(dayBar(HK, '2024-01-03', 10, 10, 10, 10, 500));
    sim.bar(dayBar(HK, '2024-01-04', 10, 10, 10, 10, 500));

    const [first, second] = sim.fillsOf(placed.orderId);
    // Whole order: value 1000 → platform 15, stamp 1, SFC 0.03, trading 0.06, settlement 2, AFRC 0 = 18.09.
    expect(first!.lastFee!.plus(second!.lastFee!).toFixed()).toBe('18.09');
    expect(sim.venue.order(placed.orderId).charges.total.toFixed()).toBe('18.09');
    expect(first!.lastFee!.toFixed()).toBe('18.04');
    expect(second!.lastFee!.toFixed()).toBe('0.05');
  });

  it("fills on a replayed bar's ticks up to the bar's volume, as on the bar: the open tick takes what the bar allows", () => {
    const sim = new Harness({ volumeParticipation: 0.5 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 120, { timeInForce: 'GTC' }));
    const bar = dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 100);
    const of = { start: bar.time, volume: 100 };
    const tick = (price: number, volume: number, offset: number, tickOf = of): void => {
      sim.clock.advanceTo(bar.time + offset);
      sim.venue.onTick(HK, price, volume, bar.time + offset, tickOf);
    };

    // The bar's four ticks carry 25 each; the bar allows 50, all of it at the open.
    tick(10.6, 25, 0);
    tick(10.5, 25, 1_000);
    tick(11, 25, 2_000);
    tick(10.8, 25, 3_000);
    // The next bar's ticks start from its own volume.
    tick(10.9, 10, 86_400_000, { start: bar.time + 86_400_000, volume: 40 });

    expect(sim.fillsOf(placed.orderId).map((fill) => [fill.lastShare!.toFixed(), fill.lastPrice!.toFixed()])).toEqual([
      ['50', '10.6'],
      ['20', '10.9'],
    ]);
  });

  it("fills on a tick of no bar up to that tick's volume", () => {
    const sim = new Harness({ volumeParticipation: 0.5 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 120, { timeInForce: 'GTC' }));
    sim.clock.advanceTo(D1.time + 86_400_000);
    sim.venue.onTick(HK, 10.6, 30, D1.time + 86_400_000);
    sim.venue.onTick(HK, 10.7, 30, D1.time + 86_401_000);
    expect(sim.fillsOf(placed.orderId).map((fill) => [fill.lastShare!.toFixed(), fill.lastPrice!.toFixed()])).toEqual([
      ['15', '10.6'],
      ['15', '10.7'],
    ]);
  });
});
