import { describe, expect, it } from 'vitest';
import { MarketReplay } from '../../../src/sim/venue/index.js';
import { p, Harness, HK, localTime, minuteBar, order } from './fixtures.js';

describe('the engine driven by quote ticks', () => {
  it("fills a market order at the next tick's price", () => {
    const sim = new Harness();
    sim.venue.onTick(HK, 300, 1000, localTime(HK, '2024-01-02 10:00'));
    const placed = sim.venue.submit(order(HK, 'Buy', 100));

    sim.venue.onTick(HK, 300.2, 500, localTime(HK, '2024-01-02 10:00') + 1500);

    const [fill] = sim.fillsOf(placed.orderId);
    expect(fill!.lastPrice!.toFixed()).toBe('300.2');
    expect(fill!.updatedAt).toBe(localTime(HK, '2024-01-02 10:00') + 1500);
  });

  it('caps a tick fill at the tick volume', () => {
    const sim = new Harness();
    sim.venue.onTick(HK, 300, 1000, localTime(HK, '2024-01-02 10:00'));
    const placed = sim.venue.submit(order(HK, 'Buy', 300, { timeInForce: 'GTC' }));

    sim.venue.onTick(HK, 300.2, 200, localTime(HK, '2024-01-02 10:01'));
    sim.venue.onTick(HK, 300.4, 200, localTime(HK, '2024-01-02 10:02'));

    expect(sim.fillsOf(placed.orderId).map((fill) => [fill.lastShare!.toFixed(), fill.lastPrice!.toFixed()])).toEqual([
      ['200', '300.2'],
      ['100', '300.4'],
    ]);
  });

  it("fills a resting limit order from replayed ticks when the bar's low is printed", () => {
    const sim = new Harness();
    const replay = new MarketReplay({
      series: [
        [minuteBar(HK, '2024-01-02 10:00', 300, 301, 299, 300.5, 4000), minuteBar(HK, '2024-01-02 10:01', 300.5, 300.6, 298.8, 299, 4000)],
      ],
      clock: sim.clock,
    });
    let previous = 0;
    replay.onTick((tick) => {
      sim.venue.onTick(tick.symbol, tick.price, tick.dayVolume - previous, tick.time);
      previous = tick.dayVolume;
    });
    replay.step();
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(299), timeInForce: 'GTC' }));

    while (replay.step() !== undefined && sim.fillsOf(placed.orderId).length === 0);

    const [fill] = sim.fillsOf(placed.orderId);
    expect(fill!.lastPrice!.toFixed()).toBe('299');
    expect(replay.marketTime).toBe(localTime(HK, '2024-01-02 10:00') + Math.floor(59_999 / 3));
  });
});
