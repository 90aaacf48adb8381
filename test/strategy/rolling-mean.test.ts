import fc from 'fast-check';
import { firstValueFrom, from, toArray } from 'rxjs';
import { SMA } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { crossover } from '../../src/strategy/index.js';
import { RollingMean } from '../../src/strategy/operators/rolling-mean.js';

// Prices as market data has them (cents, ten-thousandths) and arbitrary floats, where summation order shows.
const prices = fc.array(
  fc.oneof(
    fc.integer({ min: 1, max: 10_000_000 }).map((cents) => cents / 100),
    fc.integer({ min: 1, max: 100_000_000 }).map((units) => units / 10_000),
    fc.double({ min: 1e-6, max: 1e9, noNaN: true }),
  ),
  { minLength: 1, maxLength: 300 },
);

/** The crosses trading-signals' SMA pair gives: what crossover() computed before it kept its own means. */
function crossesOfTradingSignals(closes: readonly number[], fast: number, slow: number): string[] {
  const fastAverage = new SMA(fast);
  const slowAverage = new SMA(slow);
  const crosses: string[] = [];
  let side = 0;
  for (const close of closes) {
    const fastValue = fastAverage.add(close);
    const slowValue = slowAverage.add(close);
    if (fastValue === null || slowValue === null || fastValue === slowValue) continue;
    const now = fastValue > slowValue ? 1 : -1;
    if (side !== 0 && side !== now) crosses.push(now === 1 ? 'up' : 'down');
    side = now;
  }
  return crosses;
}

describe('rolling mean', () => {
  it("gives, value for value, the very float trading-signals' SMA gives, from the bar its window fills", () => {
    fc.assert(
      fc.property(prices, fc.integer({ min: 1, max: 40 }), (values, length) => {
        const mean = new RollingMean(length);
        const reference = new SMA(length);
        for (const value of values) {
          const expected = reference.add(value);
          const full = mean.add(value);
          expect(full).toBe(expected !== null);
          if (full) expect(Object.is(mean.mean, expected)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("lets crossover emit exactly the crosses trading-signals' averages give", async () => {
    await fc.assert(
      fc.asyncProperty(prices, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 20 }), async (closes, fast, extra) => {
        const slow = fast + extra;
        const crosses = await firstValueFrom(from(closes).pipe(crossover(fast, slow), toArray()));
        expect(crosses).toEqual(crossesOfTradingSignals(closes, fast, slow));
      }),
      { numRuns: 500 },
    );
  });
});
