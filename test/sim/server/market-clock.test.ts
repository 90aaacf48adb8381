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

  describe('in lockstep with in-process clients', () => {
    it('runs by itself only up to the earliest timer and the end of the bars under way, and fires no timer on the base clock', () => {
      const base = new VirtualClock(BASE);
      const clock = new MarketClock(base, 60, MARKET);
      clock.advance(MARKET, MARKET + 3_600_000, MARKET + 600_000);
      clock.setPaced(true);
      clock.setLockstep(true);
      const fired: number[] = [];
      const timer = clock.setTimeout(() => fired.push(clock.now()), 120_000);
      base.advanceBy(60_000);
      expect(clock.now()).toBe(MARKET + 120_000);
      expect(fired).toEqual([]);
      // A bar's timer set again (cancelled, then set for the bar's end) still falls due at that end.
      timer.cancel();
      base.advanceBy(60_000);
      expect(clock.now()).toBe(MARKET + 600_000);
      clock.setTimeout(() => fired.push(clock.now()), MARKET + 600_000 - clock.now());
      expect(clock.dueBy(MARKET + 600_000)).toBe(true);
      expect(fired).toEqual([]);
    });

    it('crosses the timers due by a target at their own instants, letting the clients settle before and after each', async () => {
      const base = new VirtualClock(BASE);
      const clock = new MarketClock(base, 60, MARKET);
      clock.advance(MARKET + 59_999, MARKET + 60_000);
      clock.setPaced(true);
      clock.setLockstep(true);
      const log: string[] = [];
      const at = (label: string) => () => log.push(`${label} at +${clock.now() - MARKET}`);
      clock.setTimeout(at('bar A closes'), 1);
      clock.setTimeout(at('bar B closes'), 1);
      clock.setTimeout(at('later'), 60_001);
      // A client whose work takes real time: the clock stands still meanwhile.
      const settle = async (): Promise<void> => {
        base.advanceBy(10_000);
        log.push(`settled at +${clock.now() - MARKET}`);
      };

      await clock.crossTo(MARKET + 60_000, settle);

      expect(log).toEqual(['settled at +59999', 'bar A closes at +60000', 'bar B closes at +60000', 'settled at +60000']);
      expect(clock.dueBy(MARKET + 120_000)).toBe(true);
      expect(clock.dueBy(MARKET + 119_999)).toBe(false);
    });

    it('fires after a tick only the timers due by the tick itself', () => {
      const base = new VirtualClock(BASE);
      const clock = new MarketClock(base, 60, MARKET);
      clock.advance(MARKET, MARKET + 600_000);
      clock.setPaced(true);
      clock.setLockstep(true);
      const fired: number[] = [];
      clock.setTimeout(() => fired.push(clock.now()), 20_000);
      clock.setTimeout(() => fired.push(clock.now()), 20_001);
      clock.advance(MARKET + 20_000, MARKET + 600_000);
      base.advanceBy(1_000);
      clock.runDue();
      expect(fired).toEqual([MARKET + 20_000]);
    });
  });
});
