import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Money } from '../../../src/domain/money.js';
import { Price } from '../../../src/domain/price.js';
import { Quantity } from '../../../src/domain/quantity.js';
import { type QuantitySearch, largestQuantity, largestQuantityByBound } from '../../../src/sim/venue/largest-quantity.js';

// Buying at `price` with fees of `rate` × value (at least `minimum`, rounded up to the cent): the shapes the
// venue's fee models have. A cash search, and a margin search with shares that close a position for free.
function searchOf(budget: number, price: number, rate: number, minimum: number, im: number, closable: number): QuantitySearch {
  const cash = Money.of(budget, 'USD');
  const at = Price.of(price);
  const feesOf = (quantity: Quantity): Money => {
    if (quantity.isZero()) return Money.zero('USD');
    const proportional = Money.notional(quantity, at, 'USD')
      .times(Money.of(rate, 'USD') as never)
      .roundTo(2, 'ceil');
    return proportional.lt(Money.of(minimum, 'USD')) ? Money.of(minimum, 'USD') : proportional;
  };
  const extra = Quantity.of(closable);
  const factor = Money.of(im, 'USD');
  const opening = (quantity: Quantity): Quantity => (quantity.gt(extra) ? quantity.minus(extra) : Quantity.ZERO);
  return {
    fits: (quantity) =>
      Money.notional(opening(quantity), at, 'USD')
        .times(factor as never)
        .plus(feesOf(quantity))
        .lte(cash),
    budget: cash,
    unitCost: Money.notional(Quantity.of(1), at, 'USD').times(factor as never),
    extra,
    feesOf,
  };
}

describe('the largest quantity an account pays for', () => {
  it('is the same from a guess as from the bound, for any budget, price, fee and margin', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000_000 }),
        fc.integer({ min: 1, max: 2_000_000 }).map((cents) => cents / 100),
        fc.constantFrom(0, 0.0001, 0.001, 0.003, 0.05),
        fc.constantFrom(0, 1, 15, 5_000),
        fc.constantFrom(1, 0.5, 0.25),
        fc.integer({ min: 0, max: 2_000 }),
        (budget, price, rate, minimum, im, closable) => {
          const search = searchOf(budget, price, rate, minimum, im, closable);
          const answer = largestQuantityByBound(search);
          expect(largestQuantity(search).toFixed()).toBe(answer.toFixed());
          // And it is the largest: it fits (or is zero), one more does not.
          if (answer.isPositive()) expect(search.fits(answer)).toBe(true);
          expect(search.fits(answer.plus(Quantity.of(1)))).toBe(false);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('asks the fee model a few times, not once per halving', () => {
    const search = searchOf(10_000_000, 123.45, 0.001, 1, 1, 0);
    let asked = 0;
    const counted = { ...search, fits: (quantity: Quantity) => (asked++, search.fits(quantity)) };
    largestQuantity(counted);
    const guessed = asked;
    asked = 0;
    largestQuantityByBound(counted);
    expect(guessed).toBeLessThan(asked);
    expect(guessed).toBeLessThanOrEqual(6);
  });
});
