import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO, decimalFromNumber } from '../../../src/domain/decimal.js';
import { exactHoldingSums, markPlaces } from '../../../src/sim/venue/exact-sums.js';

// The reference: what the venue's Decimal loop computes.
function decimalSums(quantities: readonly number[], marks: readonly number[]): { value: Decimal; gross: Decimal } {
  let value = ZERO;
  let gross = ZERO;
  quantities.forEach((quantity, index) => {
    const product = new Decimal(quantity).times(decimalFromNumber(marks[index]!));
    value = value.plus(product);
    gross = gross.plus(product.abs());
  });
  return { value, gross };
}

const price = fc.oneof(
  fc.integer({ min: 1, max: 5_000_000 }).map((cents) => cents / 100),
  fc.integer({ min: 1, max: 50_000_000 }).map((tenThousandths) => tenThousandths / 10_000),
  fc.double({ min: 0.0001, max: 100_000, noNaN: true }),
);
const quantity = fc.oneof(fc.integer({ min: -100_000, max: 100_000 }), fc.double({ min: -1000, max: 1000, noNaN: true }));

describe('exact holding sums', () => {
  it('equal the Decimal sums whenever they answer, and answer for whole quantities at prices of a few decimals', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(quantity, price), { maxLength: 120 }), (holdings) => {
        const quantities = holdings.map(([q]) => q);
        const marks = holdings.map(([, mark]) => mark);
        const sums = exactHoldingSums(holdings.length, (index) => quantities[index]!, (index) => marks[index]!, []);
        const expected = decimalSums(quantities, marks);
        if (sums !== undefined) {
          expect(sums.value.toFixed()).toBe(expected.value.toFixed());
          expect(sums.gross.toFixed()).toBe(expected.gross.toFixed());
        }
        const simple = holdings.every(([q, mark]) => Number.isInteger(q) && markPlaces(mark) >= 0 && markPlaces(mark) <= 4);
        if (simple) expect(sums).toBeDefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the decimal places of a price\'s shortest text', () => {
    expect(markPlaces(397.7419)).toBe(4);
    expect(markPlaces(100)).toBe(0);
    expect(markPlaces(0.1 + 0.2)).toBe(-1);
    expect(markPlaces(1e17)).toBe(-1);
  });

  it('gives up on fractional quantities and on sums beyond 2^53', () => {
    expect(exactHoldingSums(1, () => 0.5, () => 10, [])).toBeUndefined();
    expect(exactHoldingSums(2, () => 5e15, () => 1, [])).toBeUndefined();
  });
});
