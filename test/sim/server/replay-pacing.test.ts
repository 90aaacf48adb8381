import { afterEach, describe, expect, it } from 'vitest';
import { HK, localInstant, US } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { Quantity } from '../../../src/domain/index.js';

let h: SimHarness;

afterEach(async () => {
  await h.close();
});

describe('the paced replay', () => {
  it("plays ticks on the base clock at the configured speed, and the venue reads the replay's market time", async () => {
    h = await startSimHarness({ replay: 'paced', speed: 60 });
    const open = localInstant(HK, '2024-01-02', 9, 30);
    expect(h.sim.replay.marketTime).toBe(open);
    // A one-minute bar's four ticks lie 19.999 s of market time apart: a third of a second at 60x.
    await h.clock.advanceByAsync(333);
    expect(h.sim.replay.marketTime).toBe(open);
    await h.clock.advanceByAsync(1);
    expect(h.sim.replay.marketTime).toBe(open + 19_999);
    const { orderId } = await h.http.submitOrder({
      symbol: HK,
      side: 'Buy',
      orderType: 'MO',
      quantity: Quantity.of(100),
      timeInForce: 'Day',
    });
    const submittedAt = (await h.http.orderDetail(orderId)).submittedAt;
    expect(submittedAt).toBe(Math.floor(h.sim.marketClock.now() / 1000) * 1000);
    expect(submittedAt).toBeGreaterThanOrEqual(Math.floor((open + 19_999) / 1000) * 1000);
  });

  it('interleaves the symbols in time order and skips the idle time between sessions', async () => {
    h = await startSimHarness({ replay: 'paced', speed: 6000 });
    const seen: string[] = [];
    h.sim.replay.onTick((tick) => seen.push(`${tick.symbol}@${tick.time}`));
    // Thirty HK bars take 30 market minutes, 0.3 s at 6000x; the US session starts ~13 hours later, skipped.
    await h.clock.advanceByAsync((30 * 60_000) / 6000 + 1);
    expect(seen.filter((entry) => entry.startsWith(US)).length).toBeGreaterThan(0);
    const times = seen.map((entry) => Number(entry.split('@')[1]));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(seen.some((entry) => entry === `${US}@${localInstant(US, '2024-01-02', 9, 30)}`)).toBe(true);
  });
});
