import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixed } from '../../src/domain/fixed.js';
import {
  FixedPointError,
  MAX_PRECISION,
  type Rounding,
  divideRaw,
  floatRaw,
  floatRawFromText,
  maxOf,
  minOf,
  parsed,
} from '../../src/domain/fixed-point.js';
import { Money } from '../../src/domain/money.js';
import { Price } from '../../src/domain/price.js';
import { Quantity } from '../../src/domain/quantity.js';

// The reference: decimal.js with room for every exact result these operands can have.
const Exact = DecimalJs.clone({ precision: 400, toExpNeg: -500, toExpPos: 500 });
const MODES: Record<Rounding, DecimalJs.Rounding> = {
  'half-even': DecimalJs.ROUND_HALF_EVEN,
  'half-up': DecimalJs.ROUND_HALF_UP,
  ceil: DecimalJs.ROUND_CEIL,
  floor: DecimalJs.ROUND_FLOOR,
  down: DecimalJs.ROUND_DOWN,
};

// Values of every size the arithmetic tells apart: zero, small raws, raws near and beyond 2^53, and
// precisions from whole numbers to many places.
const raws = fc.oneof(
  fc.constantFrom(0n, 1n, -1n, 9_007_199_254_740_991n, -9_007_199_254_740_991n, 9_007_199_254_740_992n),
  fc.bigInt({ min: -1_000_000n, max: 1_000_000n }),
  fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
);
const texts = fc
  .tuple(raws, fc.integer({ min: 0, max: 18 }))
  .map(([raw, precision]) => new Exact(raw.toString()).div(10 ** precision).toFixed());
const values = texts.map((text) => ({ fixed: Fixed.of(text), exact: new Exact(text) }));
const roundings = fc.constantFrom<Rounding>(...(Object.keys(MODES) as Rounding[]));

const expectSame = (actual: Fixed, expected: DecimalJs): void => {
  expect(actual.toString()).toBe(expected.toFixed());
  // A raw is a number exactly when it fits.
  expect(typeof actual.raw === 'number').toBe(BigInt(actual.raw) <= 2n ** 53n - 1n && BigInt(actual.raw) >= -(2n ** 53n - 1n));
};

describe('fixed-point arithmetic against decimal.js', () => {
  it('adds, subtracts and multiplies exactly, beyond 2^53 too', () => {
    fc.assert(
      fc.property(values, values, (a, b) => {
        expectSame(a.fixed.plus(b.fixed), a.exact.plus(b.exact));
        expectSame(a.fixed.minus(b.fixed), a.exact.minus(b.exact));
        expectSame(a.fixed.times(b.fixed), a.exact.times(b.exact));
        expect(a.fixed.plus(b.fixed).precision).toBe(Math.max(a.fixed.precision, b.fixed.precision));
        expect(a.fixed.minus(b.fixed).precision).toBe(Math.max(a.fixed.precision, b.fixed.precision));
      }),
      { numRuns: 3000 },
    );
  });

  it('compares by value whatever the precisions', () => {
    fc.assert(
      fc.property(values, values, (a, b) => {
        const expected = a.exact.cmp(b.exact);
        expect(a.fixed.compare(b.fixed)).toBe(expected);
        expect(a.fixed.eq(b.fixed)).toBe(expected === 0);
        expect(a.fixed.gt(b.fixed)).toBe(expected > 0);
        expect(a.fixed.gte(b.fixed)).toBe(expected >= 0);
        expect(a.fixed.lt(b.fixed)).toBe(expected < 0);
        expect(a.fixed.lte(b.fixed)).toBe(expected <= 0);
        expect(minOf(a.fixed, b.fixed).toString()).toBe(DecimalJs.min(a.exact, b.exact).toFixed());
        expect(maxOf(a.fixed, b.fixed).toString()).toBe(DecimalJs.max(a.exact, b.exact).toFixed());
      }),
      { numRuns: 3000 },
    );
  });

  it('negates, takes absolute values and signs as decimal.js does', () => {
    fc.assert(
      fc.property(values, (a) => {
        expectSame(a.fixed.negated(), a.exact.negated());
        expectSame(a.fixed.abs(), a.exact.abs());
        expect(a.fixed.isZero()).toBe(a.exact.isZero());
        expect(a.fixed.isNegative()).toBe(a.exact.lt(0));
        expect(a.fixed.isPositive()).toBe(a.exact.gt(0));
        expect(a.fixed.isInteger()).toBe(a.exact.isInteger());
      }),
    );
  });

  it('divides and rounds to the places asked for, in every rounding mode', () => {
    fc.assert(
      fc.property(values, values, fc.integer({ min: 0, max: 20 }), roundings, (a, b, places, rounding) => {
        fc.pre(!b.exact.isZero());
        const expected = a.exact.div(b.exact).toDecimalPlaces(places, MODES[rounding]);
        const actual = a.fixed.dividedBy(b.fixed, places, rounding);
        expectSame(actual, expected);
        expect(actual.precision).toBe(places);
        expectSame(a.fixed.roundTo(places, rounding), a.exact.toDecimalPlaces(places, MODES[rounding]));
        // decimal.js writes a negative value rounded to zero as "-0.00"; a fixed-point zero has no sign.
        expect(a.fixed.toFixed(places, rounding)).toBe(a.exact.toFixed(places, MODES[rounding]).replace(/^-(0(\.0+)?)$/, '$1'));
      }),
      { numRuns: 3000 },
    );
  });

  it('divides whole numbers exactly on both routes (floats below 2^52, bigints beyond)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
        fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
        roundings,
        (n, d, rounding) => {
          fc.pre(d !== 0n);
          const expected = new Exact(n.toString()).div(d.toString()).toDecimalPlaces(0, MODES[rounding]).toFixed();
          const asRaw = (value: bigint) => (value <= 2n ** 53n - 1n && value >= -(2n ** 53n - 1n) ? Number(value) : value);
          expect(String(divideRaw(asRaw(n), asRaw(d), rounding))).toBe(expected);
          expect(String(divideRaw(n === 0n ? 0 : n, d, rounding))).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('converts to the nearest float as decimal.js does', () => {
    fc.assert(
      fc.property(values, (a) => {
        expect(a.fixed.toNumber()).toBe(a.exact.toNumber());
      }),
    );
  });

  it('reads decimal text exactly, keeping its places, and writes it back without trailing zeros', () => {
    fc.assert(
      fc.property(values, fc.integer({ min: 0, max: 5 }), (a, zeros) => {
        const padded = a.exact.toFixed(a.exact.decimalPlaces() + zeros);
        const read = Fixed.of(padded);
        expect(read.toString()).toBe(a.exact.toFixed());
        expect(read.precision).toBe(a.exact.decimalPlaces() + zeros);
      }),
    );
    expect(Fixed.of('1.2e3').toString()).toBe('1200');
    expect(Fixed.of('-4.5E-3').toString()).toBe('-0.0045');
    expect(Fixed.of('.5').toString()).toBe('0.5');
    expect(Fixed.of(' 7. ').toString()).toBe('7');
    expect(Fixed.of('-0').toString()).toBe('0');
  });

  it('refuses text that is not a decimal number, naming the field', () => {
    for (const text of ['', '-', '.', 'abc', '1.2.3', '1e', '0x10', 'Infinity', 'NaN', '1e-999'])
      expect(() => Quantity.of(text, 'quantity')).toThrow(/quantity: .* is not a decimal number/);
    expect(() => Price.of(Number.NaN)).toThrow(/price: NaN is not a finite number/);
  });
});

describe('floats as decimals', () => {
  // The shortcut and the reference (the float's own shortest text) must agree on every float.
  // Floats whose shortest text has at most MAX_PRECISION places (the rest are refused, below).
  const floats = fc.oneof(
    fc
      .double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 })
      .filter((value) => new Exact(value).decimalPlaces() <= MAX_PRECISION),
    fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 10 })).map(([units, places]) => units / 10 ** places),
    fc.integer({ min: -1e6, max: 1e6 }).map((cents) => cents / 100),
  );

  it('reads a float as its shortest text, on the shortcut as on the reference route', () => {
    fc.assert(
      fc.property(floats, (value) => {
        floatRaw(value);
        const shortcut = Fixed.fromRaw(parsed.raw, parsed.precision);
        floatRawFromText(value);
        const reference = Fixed.fromRaw(parsed.raw, parsed.precision);
        expect(shortcut.toString()).toBe(reference.toString());
        expect(shortcut.precision).toBe(reference.precision);
        expect(shortcut.toString()).toBe(new Exact(value).toFixed());
        expect(shortcut.toNumber()).toBe(value === 0 ? 0 : value);
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses a float with more places than are kept', () => {
    expect(() => Price.of(5e-324)).toThrow(/5e-324 has more than 40 decimal places/);
  });

  it('keeps the places a price was written with', () => {
    expect(Price.of(123.45).precision).toBe(2);
    expect(Price.of(0.1).plus(Price.of(0.2)).toString()).toBe('0.3');
    expect(Price.of(1458.469971).precision).toBe(6);
  });
});

describe('beyond 2^53 and beyond the places kept', () => {
  it('holds a sum past 2^53 as a bigint and comes back to a number when it fits again', () => {
    const big = Fixed.of('9007199254740991');
    const sum = big.plus(Fixed.of(2));
    expect(typeof sum.raw).toBe('bigint');
    expect(sum.toString()).toBe('9007199254740993');
    const back = sum.minus(Fixed.of(2));
    expect(typeof back.raw).toBe('number');
    expect(back.toString()).toBe('9007199254740991');
  });

  it('keeps cash exact at 13 places (1,000,000 less a commission of a slipped fill)', () => {
    const cash = Money.of(1_000_000, 'USD');
    const price = Price.of(1458.469971).times(Fixed.of('1.0005'));
    const value = Money.notional(Quantity.of(100), price, 'USD');
    const fee = value.times(Fixed.of('0.001'));
    const after = cash.minus(value.plus(fee));
    expect(after.toString()).toBe(new Exact(1_000_000).minus(new Exact('145919.92059855').times('1.001')).toFixed());
    expect(typeof after.raw).toBe('bigint');
  });

  it('refuses a product that would need more than the places kept', () => {
    const tiny = Fixed.of(`0.${'0'.repeat(MAX_PRECISION - 2)}3`);
    expect(() => tiny.times(tiny)).toThrow(FixedPointError);
    expect(() => tiny.times(tiny)).toThrow(/needs 78 decimal places; at most 40 are kept/);
    // Trailing zeros are dropped first: 0.5 × 2 at many places is exactly 1.
    expect(
      Fixed.of(`0.${'5'.padEnd(MAX_PRECISION, '0')}`)
        .times(Fixed.of(`2.${'0'.repeat(MAX_PRECISION)}`))
        .toString(),
    ).toBe('1');
  });

  it('refuses to divide by zero', () => {
    expect(() => Fixed.of(1).dividedBy(Fixed.ZERO, 2)).toThrow(/÷ 0/);
  });
});

describe('kinds', () => {
  it('adds money of one currency and refuses to mix currencies', () => {
    expect(Money.of('1.50', 'USD').plus(Money.of(2, 'USD')).toString()).toBe('3.5');
    expect(() => Money.of(1, 'USD').plus(Money.of(1, 'HKD'))).toThrow(/different currencies/);
    expect(() => Money.of(1, 'USD').minus(Money.of(1, 'HKD'))).toThrow(FixedPointError);
  });

  it('keeps the kind and the currency through arithmetic', () => {
    const money = Money.of('10.25', 'HKD').times(Fixed.of('0.5')).negated().abs().roundTo(1, 'half-up');
    expect(money).toBeInstanceOf(Money);
    expect(money.currency).toBe('HKD');
    expect(money.toString()).toBe('5.1');
    expect(Quantity.of('2.5').floor().toString()).toBe('2');
    expect(Quantity.of('-2.5').floor().toString()).toBe('-3');
    expect(Price.of(10).dividedBy(Fixed.of(3), 4)).toBeInstanceOf(Price);
  });

  it("gives an operand back for a zero no finer than it, and takes a finer zero's places", () => {
    const price = Price.of('1.5');
    expect(price.plus(Price.of('0'))).toBe(price);
    expect(price.minus(Price.of('0.0'))).toBe(price);
    expect(Price.of('0').plus(price)).toBe(price);
    expect(price.plus(Price.of('0.00')).precision).toBe(2);
    expect(price.minus(Price.of('0.00')).precision).toBe(2);
    expect(Price.of('0.00').plus(price).precision).toBe(2);
    const dollars = Money.of('2.25', 'USD');
    expect(Money.zero('USD').plus(dollars)).toBe(dollars);
    expect(() => Money.zero('HKD').plus(dollars)).toThrow(/different currencies/);
    expect(Money.zero('HKD').currency).toBe('HKD');
    expect(Money.zero('USD').currency).toBe('USD');
  });

  it('values a quantity at a price in a currency', () => {
    const notional = Money.notional(Quantity.of(300), Price.of('12.345'), 'HKD');
    expect(notional.toString()).toBe('3703.5');
    expect(notional.currency).toBe('HKD');
    expect(Money.notional(Quantity.of('90071992547409.91'), Price.of(100), 'USD').toString()).toBe('9007199254740991');
    expect(Money.notional(Quantity.of('90071992547409.92'), Price.of(100), 'USD').toString()).toBe('9007199254740992');
  });

  it('writes JSON as decimal text, and fixed places on request', () => {
    expect(JSON.stringify({ price: Price.of('1.230') })).toBe('{"price":"1.23"}');
    expect(Price.of('1.2').toFixed(3)).toBe('1.200');
    expect(Money.of('-0.005', 'USD').toFixed(2)).toBe('0.00');
    expect(Money.of('-0.005', 'USD').toFixed(2, 'half-up')).toBe('-0.01');
  });
});
