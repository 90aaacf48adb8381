import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { MarketClock } from '../../../src/sim/server/index.js';

const BASE = Date.parse('2024-06-03T00:00:00Z');
const MARKET = Date.parse('2024-01-02T01:30:00Z');

describe('MarketClock', () => {
  it("reads the latest tick's time while stepped, whatever the base clock does", () => {
    const base = new VirtualClock(BASE);
    const clock = new MarketClock(base, 60, MARKET);
    clock.advance(MARKET + 20_000, MARKET + 40_000);
    base.advanceBy(5_000);
    expect(clock.now()).toBe(MARKET + 20_000);
  });

  it('runs at speed × the base clock between ticks while paced, never past the next tick', () => {
    const base = new VirtualClock(BASE);
    const clock = new MarketClock(base, 60, MARKET);
    clock.advance(MARKET, MARKET + 600_000);
    clock.setPaced(true);
    base.advanceBy(1_000);
    expect(clock.now()).toBe(MARKET + 60_000);
    base.advanceBy(60_000);
    expect(clock.now()).toBe(MARKET + 600_000);
  });

  it('fires a market timer after the tick that reaches it', () => {
    const base = new VirtualClock(BASE);
    const clock = new MarketClock(base, 60, MARKET);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 30_000);
    clock.advance(MARKET + 20_000, MARKET + 40_000);
    clock.runDue();
    expect(fired).toEqual([]);
    clock.advance(MARKET + 40_000, undefined);
    clock.runDue();
    expect(fired).toEqual([MARKET + 40_000]);
  });

  it('fires market timers and intervals on the base clock while paced', () => {
    const base = new VirtualClock(BASE);
    const clock = new MarketClock(base, 60, MARKET);
    clock.advance(MARKET, MARKET + 3_600_000);
    clock.setPaced(true);
    const fired: number[] = [];
    const interval = clock.setInterval(() => fired.push(clock.now()), 120_000);
    base.advanceBy(6_000);
    expect(fired).toEqual([MARKET + 120_000, MARKET + 240_000, MARKET + 360_000]);
    interval.cancel();
    base.advanceBy(6_000);
    expect(fired).toHaveLength(3);
  });
});
