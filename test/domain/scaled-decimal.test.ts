import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.js';
import { minus, plus, times } from '../../src/domain/decimal-shortcuts.js';
import { decimalOfFloat, decimalOfScaled, readScaled, scaled, shortestPlaces } from '../../src/domain/scaled-decimal.js';

// What decimal.js computes with: sign, exponent and base-1e7 words. Equal text is not enough; a Decimal
// holding the same value in other words (a trailing zero word, say) would break decimal.js's own methods.
const inside = (value: Decimal) => ({ s: value.s, e: value.e, d: value.d === null ? null : [...value.d] });
const sameInside = (actual: Decimal, expected: Decimal): void => expect(inside(actual)).toEqual(inside(expected));

const wholes = fc.oneof(
  fc.integer({ min: 1, max: 9_999_999 }),
  fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  fc.constantFrom(1, 10, 1e7, 1e14, 9_007_199_254_740_991, 1_000_000_000_000_000),
);
const scales = fc.integer({ min: -20, max: 30 });

// Short values as market data and accounts have them (prices, quantities, cash), and some that are not short.
const decimals = fc
  .oneof(
    fc.tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 8 })).map(([units, places]) => `${units}e-${places}`),
    fc
      .tuple(fc.boolean(), fc.stringMatching(/^[1-9]\d{0,17}$/), fc.integer({ min: -25, max: 25 }))
      .map(([negative, digits, exponent]) => `${negative ? '-' : ''}${digits}e${exponent}`),
    fc.constantFrom('0', '-0', '1', '100', '0.5', '9007199254740991', '9007199254740993', '1e-30'),
  )
  .map((text) => new Decimal(text));

describe('short decimals as whole numbers over a power of ten', () => {
  it('make a Decimal from sign, whole number and scale holding the very words decimal.js holds', () => {
    fc.assert(
      fc.property(fc.constantFrom(1, -1), wholes, scales, (sign, whole, scale) => {
        sameInside(decimalOfScaled(sign, whole, scale), new Decimal(`${sign < 0 ? '-' : ''}${whole}e${-scale}`));
      }),
      { numRuns: 5000 },
    );
  });

  it('read a short Decimal back as the same whole number and scale; every value of up to 8 digits between 1e-20 and 1e15 is short', () => {
    fc.assert(
      fc.property(decimals, (value) => {
        if (!readScaled(value)) {
          expect(value.isZero() || value.sd() > 8 || value.e > 14 || value.e < -20).toBe(true);
          return;
        }
        expect(new Decimal(scaled.whole).times(new Decimal(10).pow(-scaled.scale)).eq(value.abs())).toBe(true);
        sameInside(decimalOfScaled(value.s, scaled.whole, scaled.scale), value);
      }),
      { numRuns: 5000 },
    );
  });

  it("finds the decimal places of a price's shortest text", () => {
    expect(shortestPlaces(397.7419)).toBe(4);
    expect(shortestPlaces(100)).toBe(0);
    expect(shortestPlaces(0.1 + 0.2)).toBe(-1);
    expect(shortestPlaces(1e17)).toBe(-1);
  });

  it('turn price floats into the Decimal new Decimal(float) makes, or leave them to decimal.js', () => {
    const floats = fc.oneof(
      fc.tuple(fc.integer({ min: -1e10, max: 1e10 }), fc.integer({ min: 0, max: 10 })).map(([units, places]) => units / 10 ** places),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0.1, 0.3, 1 / 3, 123.45, 2 ** 51, 2 ** 51 - 1, 1e-9, 45_035_996.27370496),
    );
    let made = 0;
    fc.assert(
      fc.property(floats, (value) => {
        const decimal = decimalOfFloat(value);
        if (decimal === undefined) return;
        made += 1;
        sameInside(decimal, new Decimal(value));
      }),
      { numRuns: 5000 },
    );
    expect(made).toBeGreaterThan(2000);
    sameInside(decimalOfFloat(123.45)!, new Decimal('123.45'));
    expect(decimalOfFloat(1 / 3)).toBeUndefined();
    expect(decimalOfFloat(0)).toBeUndefined();
  });

  it('add, subtract and multiply short values into the words decimal.js makes', () => {
    fc.assert(
      fc.property(decimals, decimals, (a, b) => {
        sameInside(plus(a, b), a.plus(b));
        sameInside(minus(a, b), a.minus(b));
        sameInside(times(a, b), a.times(b));
        // Results made here go on into decimal.js's own arithmetic unchanged.
        sameInside(plus(a, b).times(3).minus(b), a.plus(b).times(3).minus(b));
      }),
      { numRuns: 5000 },
    );
  });
});
