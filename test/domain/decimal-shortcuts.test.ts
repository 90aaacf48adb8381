import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO, decimalFromNumber } from '../../src/domain/decimal.js';
import {
  abs,
  atLeastZero,
  compare,
  dividedBy,
  eq,
  gt,
  gte,
  isPositive,
  lt,
  lte,
  min,
  minus,
  plus,
  times,
  toFixed,
  toNumber,
} from '../../src/domain/decimal-shortcuts.js';

// Decimals of every kind the shortcuts look at: both zeros, one, short and long (beyond 35 digits) values,
// whole numbers, tiny and huge exponents.
const digitsOf = (pattern: RegExp) => fc.tuple(fc.boolean(), fc.stringMatching(pattern), fc.integer({ min: -45, max: 45 }));
const decimals = fc
  .oneof(
    fc.constantFrom('0', '-0', '1', '-1', '100', '0.5'),
    digitsOf(/^[1-9]\d{0,20}$/).map(([negative, digits, exponent]) => `${negative ? '-' : ''}${digits}e${exponent}`),
    digitsOf(/^[1-9]\d{35,49}$/).map(([negative, digits, exponent]) => `${negative ? '-' : ''}${digits}e${exponent}`),
    fc.tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 8 })).map(([units, places]) => `${units}e-${places}`),
  )
  .map((text) => new Decimal(text));

// valueOf() keeps the sign of zero ('-0'), so equal text means the same digits and the same sign.
const same = (actual: Decimal, expected: Decimal): void => expect(actual.valueOf()).toBe(expected.valueOf());

describe('decimal shortcuts', () => {
  it('add, subtract, multiply and divide exactly as decimal.js does', () => {
    fc.assert(
      fc.property(decimals, decimals, fc.boolean(), (a, other, itself) => {
        const b = itself ? new Decimal(a) : other;
        // Twice each: the second call of the same operands is answered from the recent results.
        for (let round = 0; round < 2; round += 1) {
          same(plus(a, b), a.plus(b));
          same(minus(a, b), a.minus(b));
          same(times(a, b), a.times(b));
          if (!b.isZero()) same(dividedBy(a, b), a.dividedBy(b));
          expect(toFixed(a)).toBe(a.toFixed());
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('compare as decimal.js does, NaN and infinities included', () => {
    const any = fc.oneof(
      { arbitrary: decimals, weight: 8 },
      fc.constantFrom('NaN', 'Infinity', '-Infinity').map((text) => new Decimal(text)),
    );
    fc.assert(
      fc.property(any, any, fc.boolean(), (a, b, itself) => {
        const other = itself ? a : b;
        expect(compare(a, other)).toEqual(a.cmp(other));
        expect([eq(a, other), gt(a, other), gte(a, other), lt(a, other), lte(a, other)]).toEqual([
          a.eq(other),
          a.gt(other),
          a.gte(other),
          a.lt(other),
          a.lte(other),
        ]);
      }),
      { numRuns: 3000 },
    );
  });

  it('take max(0, x), |x| and x > 0 as decimal.js does', () => {
    fc.assert(
      fc.property(decimals, (value) => {
        same(atLeastZero(value), Decimal.max(ZERO, value));
        same(abs(value), value.abs());
        expect(isPositive(value)).toBe(value.gt(0));
      }),
      { numRuns: 3000 },
    );
  });

  it('take the smaller of two values as Decimal.min does, the sign of an equal zero included', () => {
    const any = fc.oneof(
      { arbitrary: decimals, weight: 8 },
      fc.constantFrom('NaN', 'Infinity', '-Infinity').map((text) => new Decimal(text)),
    );
    fc.assert(
      fc.property(any, any, fc.boolean(), (a, b, itself) => {
        const other = itself ? new Decimal(a) : b;
        same(min(a, other), Decimal.min(a, other));
      }),
      { numRuns: 3000 },
    );
    same(min(ZERO, new Decimal('-0')), Decimal.min(ZERO, new Decimal('-0')));
    same(min(new Decimal('-0'), ZERO), Decimal.min(new Decimal('-0'), ZERO));
  });

  it('turn decimals into the same floats as toNumber, whole numbers without text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          decimals,
          fc.integer({ min: -(2 ** 53), max: 2 ** 53 }).map((value) => new Decimal(value)),
        ),
        (value) => {
          expect(Object.is(toNumber(value), value.toNumber())).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('returns the decimal of a float the same as a fresh conversion, however often it is asked', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.double({ noNaN: true, noDefaultInfinity: true }),
            fc.integer({ min: 1, max: 99_999 }).map((cents) => cents / 100),
          ),
          { maxLength: 50 },
        ),
        (values) => {
          for (const value of [...values, ...values]) same(decimalFromNumber(value), new Decimal(value));
        },
      ),
    );
    same(decimalFromNumber(-0), new Decimal(-0));
    same(decimalFromNumber(0), new Decimal(0));
  });
});
