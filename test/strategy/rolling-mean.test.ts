import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { firstValueFrom, from, toArray } from 'rxjs';
import { SMA } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { crossover, sma } from '../../src/strategy/index.js';
import { RollingMean } from '../../src/strategy/operators/rolling-mean.js';
import { floatPlaces } from '../../src/domain/fixed-text.js';

// Prices as market data has them: cents, ten-thousandths, six places, mixed in one series.
const decimalPrices = fc.array(
  fc.oneof(
    fc.integer({ min: 1, max: 10_000_000 }).map((cents) => cents / 100),
    fc.integer({ min: 1, max: 100_000_000 }).map((units) => units / 10_000),
    fc.integer({ min: 1, max: 10_000_000_000 }).map((units) => units / 1_000_000),
  ),
  { minLength: 1, maxLength: 300 },
);
// Few distinct values, so that equal windows (ties) come up often.
const tiedPrices = fc.array(fc.constantFrom(0.1, 0.2, 0.3, 0.7, 1.1, 2.2), { minLength: 1, maxLength: 200 });
// Floats that are no short decimal: the window falls back to float sums.
// No short decimal by RollingMean's own rule (a float of 15+ digits may still be one, such as 132032704.2078507,
// which the window then sums exactly rather than as trading-signals does).
const longFloats = fc.array(
  fc.double({ min: 1e-6, max: 1e9, noNaN: true }).filter((value) => floatPlaces(value) < 0),
  {
    minLength: 1,
    maxLength: 100,
  },
);

/** The exact mean of each full window, from decimal.js on the values' texts. */
function exactMeans(values: readonly number[], length: number): (Decimal | null)[] {
  return values.map((_, index) =>
    index + 1 < length
      ? null
      : values
          .slice(index + 1 - length, index + 1)
          .reduce((sum, value) => sum.plus(String(value)), new Decimal(0))
          .dividedBy(length),
  );
}

/** The crosses of exactly compared means: the reference crossover() must match. */
function exactCrosses(closes: readonly number[], fast: number, slow: number): string[] {
  const fastMeans = exactMeans(closes, fast);
  const slowMeans = exactMeans(closes, slow);
  const crosses: string[] = [];
  let side = 0;
  for (let index = 0; index < closes.length; index += 1) {
    const fastMean = fastMeans[index];
    const slowMean = slowMeans[index];
    if (fastMean == null || slowMean == null || fastMean.eq(slowMean)) continue;
    const now = fastMean.gt(slowMean) ? 1 : -1;
    if (side !== 0 && side !== now) crosses.push(now === 1 ? 'up' : 'down');
    side = now;
  }
  return crosses;
}

/** The crosses of trading-signals' float SMAs (what crossover() gave before its sums were exact). */
function floatCrosses(closes: readonly number[], fast: number, slow: number): string[] {
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
  it('gives the correctly rounded float of the exact mean of decimal prices', () => {
    fc.assert(
      fc.property(decimalPrices, fc.integer({ min: 1, max: 40 }), (values, length) => {
        const mean = new RollingMean(length);
        const expected = exactMeans(values, length);
        const column = Float64Array.from(values);
        values.forEach((_, index) => {
          expect(mean.add(column, index)).toBe(expected[index] !== null);
          if (expected[index] !== null) expect(mean.mean).toBe(expected[index]!.toNumber());
        });
      }),
      { numRuns: 500 },
    );
  });

  it("falls back to trading-signals' float sums for floats that are no short decimal", () => {
    fc.assert(
      fc.property(longFloats, fc.integer({ min: 1, max: 20 }), (values, length) => {
        const mean = new RollingMean(length);
        const reference = new SMA(length);
        const column = Float64Array.from(values);
        for (const [index, value] of values.entries()) {
          const expected = reference.add(value);
          expect(mean.add(column, index)).toBe(expected !== null);
          if (expected !== null) expect(mean.mean).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('compares two means exactly, and sma gives equal windows equal averages', async () => {
    await fc.assert(
      fc.asyncProperty(tiedPrices, fc.integer({ min: 1, max: 8 }), async (values, length) => {
        const averages = await firstValueFrom(from(values).pipe(sma(length), toArray()));
        const expected = exactMeans(values, length).filter((mean) => mean !== null);
        expect(averages).toEqual(expected.map((mean) => mean.toNumber()));
      }),
      { numRuns: 300 },
    );
  });
});

describe('crossover on exact means', () => {
  it('emits exactly the crosses of exactly compared means', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(decimalPrices, tiedPrices),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 20 }),
        async (closes, fast, extra) => {
          const slow = fast + extra;
          const crosses = await firstValueFrom(from(closes).pipe(crossover(fast, slow), toArray()));
          expect(crosses).toEqual(exactCrosses(closes, fast, slow));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('sees no cross where the windows tie, which float sums read as one', async () => {
    // Fast mean (0.3 + 0.1) / 2 and slow mean (0.2 + 0.3 + 0.1) / 3 are both 0.2; summed in floats the
    // slow one is 0.19999999999999998, and the fast mean looks like it crossed above.
    const closes = [1.8, 2.8, 0.2, 0.3, 0.1];
    expect(floatCrosses(closes, 2, 3)).toEqual(['up']);
    expect(await firstValueFrom(from(closes).pipe(crossover(2, 3), toArray()))).toEqual([]);
  });
});
