import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ratioOf } from '../../src/domain/decimal.js';
import { Money } from '../../src/domain/money.js';

// The reference: decimal.js to 40 significant digits, then the nearest float.
const Reference = DecimalJs.clone({ precision: 40 });
const reference = (a: Money, b: Money): number => new Reference(a.toString()).dividedBy(b.toString()).toNumber();

const amounts = fc
  .tuple(fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n })), fc.integer({ min: 0, max: 12 }))
  .map(([raw, precision]) => Money.fromRaw(typeof raw === 'bigint' ? raw : raw, precision, 'USD'));

describe('ratioOf (report ratios)', () => {
  it('is the float decimal.js gives for the quotient, small or large, any scales', () => {
    fc.assert(
      fc.property(amounts, amounts, (a, b) => {
        fc.pre(!b.isZero());
        expect(ratioOf(a, b)).toBe(reference(a, b));
      }),
      { numRuns: 20_000 },
    );
  });

  it('divides by a plain number too', () => {
    expect(ratioOf(Money.of('10', 'USD'), 4)).toBe(2.5);
  });

  it('by a whole count, is the float decimal.js gives, small or large, any scales', () => {
    const counts = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -(2 ** 53), max: 2 ** 53 }));
    fc.assert(
      fc.property(amounts, counts, (a, count) => {
        fc.pre(count !== 0);
        expect(ratioOf(a, count)).toBe(new Reference(a.toString()).dividedBy(count).toNumber());
      }),
      { numRuns: 20_000 },
    );
  });

  it('by a fraction, still goes through decimal.js', () => {
    expect(ratioOf(Money.of('1', 'USD'), 0.1)).toBe(10);
  });
});
