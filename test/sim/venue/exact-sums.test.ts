import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO, decimalFromNumber } from '../../../src/domain/decimal.js';
import { shortestPlaces } from '../../../src/domain/scaled-decimal.js';
import { ExactHoldingSums, UNCOUNTED, type Holding } from '../../../src/sim/venue/exact-sums.js';

interface TestHolding extends Holding {
  quantity: number;
  mark: number;
}

// The reference: what the venue's Decimal loop computes.
function decimalSums(held: readonly Holding[]): { value: Decimal; gross: Decimal } {
  let value = ZERO;
  let gross = ZERO;
  for (const { quantity, mark } of held) {
    const product = new Decimal(quantity).times(decimalFromNumber(mark));
    value = value.plus(product);
    gross = gross.plus(product.abs());
  }
  return { value, gross };
}

/** Positions kept the way the venue's book keeps them: a held list, and the sums told of every move. */
function portfolio(size: number) {
  const holdings: TestHolding[] = Array.from({ length: size }, () => ({
    quantity: 0,
    mark: 1,
    countedPlaces: UNCOUNTED,
    countedValue: 0,
    countedStale: false,
  }));
  const held: TestHolding[] = [];
  const sums = new ExactHoldingSums(held);
  const set = (index: number, quantity: number, mark: number): void => {
    const holding = holdings[index]!;
    if (holding.quantity === 0 && quantity !== 0) held.push(holding);
    if (holding.quantity !== 0 && quantity === 0) held.splice(held.indexOf(holding), 1);
    holding.quantity = quantity;
    holding.mark = mark;
    sums.changed(holding);
  };
  return { held, sums, set };
}

const price = fc.oneof(
  fc.integer({ min: 1, max: 5_000_000 }).map((cents) => cents / 100),
  fc.integer({ min: 1, max: 50_000_000 }).map((tenThousandths) => tenThousandths / 10_000),
  fc.double({ min: 0.0001, max: 100_000, noNaN: true }),
);
const quantity = fc.oneof(fc.constant(0), fc.integer({ min: -100_000, max: 100_000 }), fc.double({ min: -1000, max: 1000, noNaN: true }));
const move = fc.tuple(fc.nat({ max: 11 }), quantity, price, fc.boolean());

describe('exact holding sums', () => {
  it('equal the Decimal sums whenever they answer, and answer for whole quantities at prices of a few decimals, through any sequence of moves', () => {
    fc.assert(
      fc.property(fc.array(move, { maxLength: 80 }), (moves) => {
        const { held, sums, set } = portfolio(12);
        for (const [index, q, mark, read] of moves) {
          set(index, q, mark);
          if (!read) continue;
          const answer = sums.current();
          // Asked again with nothing moved: the same answer, not counted again.
          expect(sums.current()).toBe(answer);
          const expected = decimalSums(held);
          if (answer !== undefined) {
            expect(answer.value.toFixed()).toBe(expected.value.toFixed());
            expect(answer.gross.toFixed()).toBe(expected.gross.toFixed());
          }
          const simple = held.every(
            (holding) => Number.isInteger(holding.quantity) && shortestPlaces(holding.mark) >= 0 && shortestPlaces(holding.mark) <= 4,
          );
          if (simple) expect(answer).toBeDefined();
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('gives up on fractional quantities and on sums beyond 2^53, and answers again once they are gone', () => {
    const { sums, set } = portfolio(2);
    set(0, 0.5, 10);
    expect(sums.current()).toBeUndefined();
    set(0, 0, 10);
    set(0, 5e15, 1);
    set(1, 5e15, 1);
    expect(sums.current()).toBeUndefined();
    set(1, -3, 2);
    expect(sums.current()?.value.toFixed()).toBe('4999999999999994');
    expect(sums.current()?.gross.toFixed()).toBe('5000000000000006');
    set(0, 7, 1.25);
    expect(sums.current()?.value.toFixed()).toBe('2.75');
  });
});
