// Fixed-point decimals: a whole number `raw` in units of 10^-precision (NautilusTrader's fixed-point types
// are the model). Sums, differences, products and comparisons are exact: they work on safe integers, and a
// result beyond 2^53 − 1 is held as a bigint instead (never a rounded float). Division and rounding take
// the places and the rounding mode from the caller. Price, Quantity, Money and Fixed (a plain number) are
// the kinds; this is their shared arithmetic. Raws and places are checked where they come in (fromRaw,
// the places arguments), never on the arithmetic's own results.
import type { Fixed } from './fixed.js';
import {
  addRaw,
  checkPlaces,
  compareRaw,
  divideRaw,
  FixedPointError,
  formatRaw,
  formatRawPadded,
  MAX_PRECISION,
  multiplyRaw,
  negateRaw,
  type Raw,
  rawToNumber,
  type Rounding,
  SAFE,
  scaleRaw,
  significantPrecision,
} from './fixed-raw.js';
import { floatRaw, parsed } from './fixed-text.js';

/**
 * The shared arithmetic of the kinds. Results of plus and minus carry the finer of the two precisions,
 * products the sum of them (dropping trailing zeros only when that sum would pass MAX_PRECISION).
 */
export abstract class FixedPoint {
  // Declared and assigned, not class fields: cheaper to make, and these are made on every step of the order
  // path (bench/README.md, "Class fields").
  declare readonly raw: Raw;
  declare readonly precision: number;

  protected constructor(raw: Raw, precision: number) {
    this.raw = raw;
    this.precision = precision;
  }

  /** A value of this kind (and currency) from a raw and a precision. */
  protected abstract make(raw: Raw, precision: number): this;

  plus(other: this): this {
    const a = this.raw;
    const b = other.raw;
    // A zero no finer than the other operand gives that operand back (values are immutable; the order path adds many).
    if (b === 0 && other.precision <= this.precision) return this;
    if (a === 0 && this.precision <= other.precision) return other;
    if (this.precision === other.precision && typeof a === 'number' && typeof b === 'number') {
      const sum = a + b;
      if (sum <= SAFE && sum >= -SAFE) return this.make(sum, this.precision);
    }
    return this.sum(other, false);
  }

  minus(other: this): this {
    const a = this.raw;
    const b = other.raw;
    if (b === 0 && other.precision <= this.precision) return this;
    if (this.precision === other.precision && typeof a === 'number' && typeof b === 'number') {
      const difference = a - b;
      if (difference <= SAFE && difference >= -SAFE) return this.make(difference + 0, this.precision);
    }
    return this.sum(other, true);
  }

  private sum(other: FixedPoint, subtract: boolean): this {
    const precision = Math.max(this.precision, other.precision);
    const a = scaleRaw(this.raw, precision - this.precision);
    const b = scaleRaw(other.raw, precision - other.precision);
    return this.make(addRaw(a, subtract ? negateRaw(b) : b), precision);
  }

  /** this × factor, exactly (the factor's kind is the caller's business: a rate, a count, a ratio). */
  times(factor: FixedPoint): this {
    const a = this.raw;
    const b = factor.raw;
    // A factor of exactly 1 (no places) gives this back: a cash account's margin factors are 1, on every order.
    if (b === 1 && factor.precision === 0) return this;
    const precision = this.precision + factor.precision;
    if (typeof a === 'number' && typeof b === 'number' && precision <= MAX_PRECISION) {
      const product = a * b;
      if (product <= SAFE && product >= -SAFE) return this.make(product + 0, precision);
    }
    return this.product(factor);
  }

  private product(factor: FixedPoint): this {
    multiplyInto(this, factor);
    return this.make(parsed.raw, parsed.precision);
  }

  /** this ÷ divisor rounded to `places` decimal places (half-even unless told otherwise). */
  dividedBy(divisor: FixedPoint, places: number, rounding: Rounding = 'half-even'): this {
    checkPlaces(places, 'places');
    if (divisor.raw === 0) throw new FixedPointError('DIVISION_BY_ZERO', `${this.toString()} ÷ 0`);
    return this.make(quotientRaw(this, divisor, places, rounding), places);
  }

  /** this rounded to `places` decimal places; unchanged when it has no more. */
  roundTo(places: number, rounding: Rounding = 'half-even'): this {
    checkPlaces(places, 'places');
    if (places >= this.precision) return this;
    return this.make(divideRaw(this.raw, scaleRaw(1, this.precision - places), rounding), places);
  }

  /** The same value at exactly `precision` places; one too coarse to hold it is refused (roundTo rounds). */
  withPrecision(precision: number): this {
    checkPlaces(precision, 'precision');
    if (precision >= this.precision)
      return precision === this.precision ? this : this.make(scaleRaw(this.raw, precision - this.precision), precision);
    if (significantPrecision(this.raw, this.precision) > precision)
      throw new FixedPointError('WOULD_ROUND', `${this.toString()} needs more than ${precision} decimal places: roundTo rounds it`);
    return this.make(divideRaw(this.raw, scaleRaw(1, this.precision - precision), 'down'), precision);
  }

  /** The same value without trailing zeros after the point (the fewest places that hold it). */
  normalized(): this {
    const places = significantPrecision(this.raw, this.precision);
    return places === this.precision ? this : this.make(divideRaw(this.raw, scaleRaw(1, this.precision - places), 'down'), places);
  }

  negated(): this {
    return this.make(negateRaw(this.raw), this.precision);
  }

  abs(): this {
    return this.raw < 0 ? this.negated() : this;
  }

  /**
   * −1, 0 or 1: how this compares with `other` (by value, whatever their precisions; a float as of() reads
   * it). `other` is a value of this kind, or a plain number (a Fixed or a float), e.g. a limit given without a unit.
   */
  compare(other: this | Fixed | number): number {
    return compareValues(this, other);
  }

  eq(other: this | Fixed | number): boolean {
    return this.compare(other) === 0;
  }

  gt(other: this | Fixed | number): boolean {
    return this.compare(other) > 0;
  }

  gte(other: this | Fixed | number): boolean {
    return this.compare(other) >= 0;
  }

  lt(other: this | Fixed | number): boolean {
    return this.compare(other) < 0;
  }

  lte(other: this | Fixed | number): boolean {
    return this.compare(other) <= 0;
  }

  isZero(): boolean {
    return this.raw === 0;
  }

  isPositive(): boolean {
    return this.raw > 0;
  }

  isNegative(): boolean {
    return this.raw < 0;
  }

  /** Whether the value is a whole number. */
  isInteger(): boolean {
    return significantPrecision(this.raw, this.precision) === 0;
  }

  /** The nearest float. */
  toNumber(): number {
    return rawToNumber(this.raw, this.precision);
  }

  /** Plain decimal text without trailing zeros ("1459.19", "-0.5", "100"): the wire form. */
  toString(): string {
    return formatRaw(this.raw, this.precision);
  }

  toJSON(): string {
    return this.toString();
  }

  /** Text with exactly `places` decimal places (rounded half-even when this has more); without places, toString(). */
  toFixed(places?: number, rounding: Rounding = 'half-even'): string {
    if (places === undefined) return this.toString();
    const rounded = this.roundTo(places, rounding);
    return formatRawPadded(rounded.raw, rounded.precision, places);
  }
}

/**
 * a × b into `parsed`: the raws multiplied, the precisions added; trailing zeros are dropped only when the
 * sum passes MAX_PRECISION, and a product that still needs more places is refused.
 */
export function multiplyInto(a: FixedPoint, b: FixedPoint): void {
  let raw = multiplyRaw(a.raw, b.raw);
  let precision = a.precision + b.precision;
  if (precision > MAX_PRECISION) {
    const places = significantPrecision(raw, precision);
    if (places > MAX_PRECISION)
      throw new FixedPointError(
        'PRECISION_EXCEEDED',
        `${a.toString()} × ${b.toString()} needs ${places} decimal places; at most ${MAX_PRECISION} are kept`,
      );
    raw = divideRaw(raw, scaleRaw(1, precision - places), 'down');
    precision = places;
  }
  parsed.raw = raw;
  parsed.precision = precision;
}

/** The raw of a ÷ b at `places` places. */
function quotientRaw(a: FixedPoint, b: FixedPoint, places: number, rounding: Rounding): Raw {
  // a / b = (a.raw / b.raw) × 10^(b.precision − a.precision); at `places` places the raw is that × 10^places.
  const shift = places + b.precision - a.precision;
  return shift >= 0 ? divideRaw(scaleRaw(a.raw, shift), b.raw, rounding) : divideRaw(a.raw, scaleRaw(b.raw, -shift), rounding);
}

/** −1, 0 or 1 by value (see FixedPoint.compare); Money's compare calls it once the currencies agree. */
export function compareValues(value: FixedPoint, other: FixedPoint | number): number {
  if (typeof other === 'number') {
    floatRaw(other);
    return compareRaw(value.raw, value.precision, parsed.raw, parsed.precision);
  }
  const a = value.raw;
  const b = other.raw;
  if (value.precision === other.precision && typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  return compareRaw(a, value.precision, b, other.precision);
}

/** The smaller of two values of one kind (the first when equal). */
export function minOf<T extends FixedPoint>(a: T, b: T): T {
  return b.compare(a) < 0 ? b : a;
}

/** The larger of two values of one kind (the first when equal). */
export function maxOf<T extends FixedPoint>(a: T, b: T): T {
  return b.compare(a) > 0 ? b : a;
}
