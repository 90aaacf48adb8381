import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixed } from '../../src/domain/fixed.js';
import { maxOf, minOf } from '../../src/domain/fixed-point.js';
import { FixedPointError, MAX_PRECISION, type Rounding, divideRaw } from '../../src/domain/fixed-raw.js';
import { floatRaw, floatRawFromText, parsed } from '../../src/domain/fixed-text.js';
import { InvalidInputError } from '../../src/domain/errors.js';
import { Money, NO_CURRENCY } from '../../src/domain/money.js';
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

// Floats whose shortest text has at most MAX_PRECISION places (the rest are refused), of every size.
const floats = fc.oneof(
  fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 })
    .filter((value) => new Exact(value).decimalPlaces() <= MAX_PRECISION),
  fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 10 })).map(([units, places]) => units / 10 ** places),
  fc.integer({ min: -1e6, max: 1e6 }).map((cents) => cents / 100),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map((whole) => Number(whole)),
);
/** What a float stands for: its shortest text while a safe integer could hold it, its exact value past that. */
const exactOf = (value: number): DecimalJs =>
  Number.isSafeInteger(Math.trunc(value)) ? new Exact(value) : new Exact(BigInt(value).toString());

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
        // Money has a compare of its own (currencies checked first).
        expect(Money.of(a.fixed, 'USD').compare(Money.of(b.fixed, 'USD'))).toBe(expected);
        expect(minOf(a.fixed, b.fixed).toString()).toBe(DecimalJs.min(a.exact, b.exact).toFixed());
        expect(maxOf(a.fixed, b.fixed).toString()).toBe(DecimalJs.max(a.exact, b.exact).toFixed());
      }),
      { numRuns: 3000 },
    );
  });

  it('compares with a float as of() reads it, exactly past 2^53', () => {
    fc.assert(
      fc.property(values, floats, (a, float) => {
        expect(a.fixed.compare(float)).toBe(a.exact.cmp(exactOf(float)));
        expect(Fixed.of(exactOf(float).toFixed()).eq(float)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(Price.of('1152921504606846976').compare(2 ** 60)).toBe(0);
    expect(Price.of('1152921504606847000').compare(2 ** 60)).toBe(1);
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
  it('reads a float as its shortest text, on the shortcut as on the reference route', () => {
    fc.assert(
      fc.property(floats, (value) => {
        floatRaw(value);
        const shortcut = Fixed.fromRaw(parsed.raw, parsed.precision);
        floatRawFromText(value);
        const reference = Fixed.fromRaw(parsed.raw, parsed.precision);
        expect(shortcut.toString()).toBe(reference.toString());
        expect(shortcut.precision).toBe(reference.precision);
        expect(shortcut.toString()).toBe(exactOf(value).toFixed());
        expect(shortcut.toNumber()).toBe(value === 0 ? 0 : value);
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses a float with more places than are kept', () => {
    expect(() => Price.of(5e-324)).toThrow(/5e-324 has more than 40 decimal places/);
  });

  it('takes a float past 2^53 as the whole number it is, not its shortest text', () => {
    // 2^60 prints as 1152921504606847000.
    expect(Price.of(2 ** 60).toString()).toBe('1152921504606846976');
    expect(Price.of(-(2 ** 60)).toFixed(2)).toBe('-1152921504606846976.00');
    expect(Price.of(2 ** 60).eq(Price.of('1152921504606846976'))).toBe(true);
    expect(Fixed.of(1e23).toString()).toBe('99999999999999991611392');
    expect(Fixed.of(2 ** 53).raw).toBe(2n ** 53n);
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

describe('raws and places given by a caller', () => {
  it('takes a raw as a safe integer or a bigint, holding a bigint that fits as a number', () => {
    expect(Price.fromRaw(12_345, 2).toString()).toBe('123.45');
    expect(Price.fromRaw(2n ** 60n, 0).toString()).toBe('1152921504606846976');
    expect(Quantity.fromRaw(-5n, 1).raw).toBe(-5);
    expect(Fixed.fromRaw(0n, 3).isZero()).toBe(true);
    expect(Money.fromRaw(-(2n ** 70n), 2, 'USD').toString()).toBe(new Exact((-(2n ** 70n)).toString()).div(100).toFixed());
  });

  it('refuses a raw that is not a safe integer, naming it', () => {
    expect(() => Price.fromRaw(2 ** 60, 0)).toThrow(/raw: 1152921504606846976 is not a safe integer/);
    for (const raw of [Number.NaN, 1.5, -0.5, 1e300, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => Price.fromRaw(raw, 0)).toThrow(InvalidInputError);
      expect(() => Quantity.fromRaw(raw, 2)).toThrow(/^raw: /);
      expect(() => Fixed.fromRaw(raw, 2)).toThrow(/^raw: /);
      expect(() => Money.fromRaw(raw, 2, 'USD')).toThrow(/^raw: /);
    }
  });

  it('refuses places that are negative, fractional, past MAX_PRECISION or not a number, naming the argument', () => {
    const price = Price.of('1234.5');
    for (const places of [-1, -2, 1.5, Number.NaN, MAX_PRECISION + 1, 2 ** 32]) {
      expect(() => Price.fromRaw(15, places)).toThrow(/^precision: .* is not a whole number of decimal places from 0 to 40/);
      expect(() => Money.fromRaw(15, places, 'USD')).toThrow(/^precision: /);
      expect(() => price.withPrecision(places)).toThrow(/^precision: /);
      expect(() => price.roundTo(places)).toThrow(/^places: /);
      expect(() => price.toFixed(places)).toThrow(/^places: /);
      expect(() => price.dividedBy(Fixed.of(3), places)).toThrow(/^places: /);
      expect(() => price.roundTo(places)).toThrow(InvalidInputError);
    }
    expect(price.roundTo(MAX_PRECISION)).toBe(price);
    expect(price.toFixed(0)).toBe('1234');
  });

  it('changes the places with withPrecision only when the value stays the same', () => {
    expect(Price.of('1.25').withPrecision(4).toFixed()).toBe('1.25');
    expect(Price.of('1.25').withPrecision(4).precision).toBe(4);
    expect(Price.of('1.20').withPrecision(1).precision).toBe(1);
    expect(() => Price.of('1.25').withPrecision(1)).toThrow(FixedPointError);
    expect(() => Price.of('1.25').withPrecision(1)).toThrow(/1.25 needs more than 1 decimal places/);
  });

  it('keeps an average within MAX_PRECISION places', () => {
    const total = Fixed.of(`1.${'0'.repeat(MAX_PRECISION - 2)}1`);
    expect(Price.average(total, Quantity.of(3)).precision).toBe(MAX_PRECISION);
  });
});

describe('kinds', () => {
  it('adds money of one currency and refuses to mix currencies', () => {
    expect(Money.of('1.50', 'USD').plus(Money.of(2, 'USD')).toString()).toBe('3.5');
    expect(() => Money.of(1, 'USD').plus(Money.of(1, 'HKD'))).toThrow(/different currencies/);
    expect(() => Money.of(1, 'USD').minus(Money.of(1, 'HKD'))).toThrow(FixedPointError);
  });

  it('refuses to compare money of different currencies, as it refuses to add it', () => {
    const dollar = Money.of(1, 'USD');
    const hkDollar = Money.of(1, 'HKD');
    expect(() => dollar.eq(hkDollar)).toThrow(/1 USD compared with 1 HKD: different currencies/);
    const comparisons = [
      () => dollar.compare(hkDollar),
      () => dollar.gt(hkDollar),
      () => dollar.gte(hkDollar),
      () => dollar.lt(hkDollar),
      () => dollar.lte(hkDollar),
      () => hkDollar.eq(dollar),
    ];
    for (const comparison of comparisons) expect(comparison).toThrow(expect.objectContaining({ code: 'CURRENCY_MISMATCH' }));
    expect(() => minOf(dollar, hkDollar)).toThrow(FixedPointError);
    expect(dollar.eq(Money.of('1.00', 'USD'))).toBe(true);
  });

  it('compares money with a plain number (a limit given without a currency)', () => {
    expect(Money.of(5, 'USD').gt(Fixed.of(4))).toBe(true);
    expect(Money.of(5, 'USD').lte(5)).toBe(true);
  });

  it('refuses a currency that is not three upper-case letters', () => {
    for (const currency of ['usd', '', 'US', 'USDT', 'U$D', undefined as unknown as string]) {
      expect(() => Money.of(1, currency)).toThrow(/^currency: .* is not an ISO 4217 code/);
      expect(() => Money.zero(currency)).toThrow(InvalidInputError);
      expect(() => Money.fromRaw(1, 0, currency)).toThrow(InvalidInputError);
      expect(() => Money.notional(Quantity.of(1), Price.of(1), currency)).toThrow(InvalidInputError);
      expect(() => Money.of(1, 'USD').in(currency)).toThrow(InvalidInputError);
    }
    for (const currency of ['USD', 'HKD', 'CNY', 'SGD', 'GBP', NO_CURRENCY]) expect(Money.of(1, currency).currency).toBe(currency);
  });

  it('compares only values of one kind, or plain numbers', () => {
    const price = Price.of(1);
    // @ts-expect-error: a price is not a quantity
    void price.eq(Quantity.of(1));
    // @ts-expect-error: nor an amount of money
    void price.lt(Money.of(1, 'USD'));
    // @ts-expect-error: nor is money a price
    void Money.of(1, 'USD').compare(price);
    expect(price.eq(Fixed.ONE) && price.eq(1) && Quantity.of(1).eq(Quantity.of('1.0'))).toBe(true);
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

  it('makes every zero result of one kind, currency and places the same value, at the places the arithmetic gives', () => {
    const cents = Money.of('2.25', 'USD');
    const gone = cents.minus(Money.of('2.25', 'USD'));
    expect(gone).toBe(Money.of('1.10', 'USD').minus(Money.of('1.1', 'USD')));
    expect([gone.raw, gone.precision, gone.currency]).toEqual([0, 2, 'USD']);
    expect(cents.minus(cents).times(Fixed.of('0.5'))).toBe(
      Money.of('0.25', 'USD').times(Fixed.of('0.001')).minus(Money.of('0.00025', 'USD')).withPrecision(3),
    );
    expect(Money.of('1', 'HKD').minus(Money.of('1', 'HKD'))).not.toBe(Money.of('1', 'USD').minus(Money.of('1', 'USD')));
    expect(Money.zero('HKD')).toBe(Money.of('3', 'HKD').minus(Money.of('3', 'HKD')));
    expect(Quantity.of(5).minus(Quantity.of(5))).toBe(Quantity.ZERO);
    const tenths = Quantity.of('0.5').minus(Quantity.of('0.5'));
    expect([tenths.raw, tenths.precision]).toEqual([0, 1]);
    expect(Quantity.of('1.5').minus(Quantity.of('1.5'))).toBe(tenths);
    expect(Price.of('2.5').negated().plus(Price.of('2.5'))).toBe(Price.of('0.1').minus(Price.of('0.1')));
    expect(() => Money.zero('usd')).toThrow(/ISO 4217/);
    expect(Money.fromRaw(0, 2, 'USD')).toBe(gone);
    expect(Quantity.fromRaw(0n, 1)).toBe(tenths);
    expect(() => Money.fromRaw(0, 2, 'usd')).toThrow(/ISO 4217/);
  });

  it('gives the value back for a factor of 1 without places, and takes the places of a 1.0', () => {
    const dollars = Money.of('2.25', 'USD');
    expect(dollars.times(Fixed.ONE)).toBe(dollars);
    expect(dollars.times(Fixed.of(1))).toBe(dollars);
    const placed = dollars.times(Fixed.of('1.0'));
    expect([placed.raw, placed.precision, placed.currency]).toEqual([2250, 3, 'USD']);
    expect(Quantity.of(-3).times(Fixed.ONE).toString()).toBe('-3');
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
