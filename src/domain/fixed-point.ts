// Fixed-point decimals: a whole number `raw` in units of 10^-precision (NautilusTrader's fixed-point types
// are the model). Sums, differences, products and comparisons are exact: they work on safe integers, and a
// result beyond 2^53 − 1 is held as a bigint instead (never a rounded float). Division and rounding take
// the places and the rounding mode from the caller. Price, Quantity, Money and Fixed (a plain number) are
// the kinds; this is their shared arithmetic. Raws and places are checked where they come in (fromRaw,
// the places arguments), never on the arithmetic's own results.
import { InvalidInputError, TraderError } from './errors.js';
import type { Fixed } from './fixed.js';

/** A safe integer, or a bigint beyond ±(2^53 − 1) (never a bigint that would fit in a number). */
export type Raw = number | bigint;

export const ROUNDINGS = ['half-even', 'half-up', 'ceil', 'floor', 'down'] as const;
/** half-up: ties away from zero; ceil/floor: towards ±infinity; down: towards zero. */
export type Rounding = (typeof ROUNDINGS)[number];

/**
 * The places a quotient that does not end keeps beyond those of its dividend (averages, shares of a cost,
 * buy power on margin), rounded there.
 */
export const EXTRA_PLACES = 8;

/** The most decimal places a value may carry; a product that would need more is refused. */
export const MAX_PRECISION = 40;

/** An operation whose exact result cannot be held (more than MAX_PRECISION places, or mixed currencies). */
export class FixedPointError extends TraderError {}

const SAFE = Number.MAX_SAFE_INTEGER;
const BIG_SAFE = BigInt(SAFE);
/** 10^0 … 10^22: each an exact float. */
export const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, power) => Number(`1e${power}`));
const BIG_POWERS: readonly bigint[] = Array.from({ length: 2 * MAX_PRECISION + 2 }, (_, power) => 10n ** BigInt(power));

export function bigPowerOfTen(power: number): bigint {
  return BIG_POWERS[power] ?? 10n ** BigInt(power);
}

/** A bigint as a Raw: a number when it fits. */
export function rawOf(value: bigint): Raw {
  return value <= BIG_SAFE && value >= -BIG_SAFE ? Number(value) : value;
}

/**
 * A raw given by a caller, as the Raw it stands for: a safe integer, or a bigint (one that fits becomes a
 * number). A float that is not a safe integer is refused: past 2^53 it may already have been rounded.
 */
export function checkRaw(raw: Raw): Raw {
  if (typeof raw === 'bigint') return rawOf(raw);
  if (Number.isSafeInteger(raw)) return raw + 0;
  return badRaw(raw);
}

/** Refuses `places` unless it is a whole number from 0 to MAX_PRECISION; `field` names the argument. */
export function checkPlaces(places: number, field: string): void {
  // x >>> 0 is x only for whole numbers from 0 to 2^32 − 1: fractions, negatives and NaN fail.
  if (places >>> 0 !== places || places > MAX_PRECISION) badPlaces(places, field);
}

function badRaw(raw: number): never {
  // A whole float is shown exactly (2^60 as 1152921504606846976) unless that runs past 21 digits.
  const shown = Number.isInteger(raw) && Math.abs(raw) < 1e21 ? `${BigInt(raw)}` : String(raw);
  throw new InvalidInputError(`raw: ${shown} is not a safe integer (give a raw past 2^53 − 1 as a bigint)`, 'raw');
}

function badPlaces(places: number, field: string): never {
  throw new InvalidInputError(`${field}: ${String(places)} is not a whole number of decimal places from 0 to ${MAX_PRECISION}`, field);
}

function big(raw: Raw): bigint {
  return typeof raw === 'bigint' ? raw : BigInt(raw);
}

/** raw × 10^power (power ≥ 0), exactly. */
export function scaleRaw(raw: Raw, power: number): Raw {
  if (power === 0) return raw;
  if (typeof raw === 'number' && power < POWERS_OF_TEN.length) {
    // A float product of two integers is exact when it is at most 2^53 − 1, and lands beyond it otherwise.
    const product = raw * POWERS_OF_TEN[power]!;
    if (product <= SAFE && product >= -SAFE) return product;
  }
  return rawOf(big(raw) * bigPowerOfTen(power));
}

export function addRaw(a: Raw, b: Raw): Raw {
  if (typeof a === 'number' && typeof b === 'number') {
    const sum = a + b;
    if (sum <= SAFE && sum >= -SAFE) return sum;
  }
  return rawOf(big(a) + big(b));
}

export function multiplyRaw(a: Raw, b: Raw): Raw {
  if (typeof a === 'number' && typeof b === 'number') {
    const product = a * b;
    // + 0 turns a product −0 into 0.
    if (product <= SAFE && product >= -SAFE) return product + 0;
  }
  return rawOf(big(a) * big(b));
}

function negateRaw(raw: Raw): Raw {
  return typeof raw === 'number' ? 0 - raw : rawOf(-raw);
}

/** −1, 0 or 1 as a (b scaled to a's places) compares; both places given. */
export function compareRaw(a: Raw, aPrecision: number, b: Raw, bPrecision: number): number {
  if (aPrecision !== bPrecision) {
    if (aPrecision < bPrecision) a = scaleRaw(a, bPrecision - aPrecision);
    else b = scaleRaw(b, aPrecision - bPrecision);
  }
  // < and > compare numbers and bigints with each other exactly.
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The quotient n / d of two whole numbers (d ≠ 0) rounded to a whole number by `rounding`. Exact: below
 * 2^52 the float quotient is off by at most one, and the remainder corrects it.
 */
export function divideRaw(n: Raw, d: Raw, rounding: Rounding): Raw {
  if (typeof n === 'number' && typeof d === 'number' && Math.abs(n) <= 2 ** 52 && Math.abs(d) <= 2 ** 52) {
    let quotient = Math.trunc(n / d);
    let remainder = n - quotient * d;
    if (remainder !== 0 && remainder < 0 !== n < 0) {
      quotient -= Math.sign(n) * Math.sign(d);
      remainder = n - quotient * d;
    } else if (Math.abs(remainder) >= Math.abs(d)) {
      quotient += Math.sign(n) * Math.sign(d);
      remainder = n - quotient * d;
    }
    if (remainder === 0) return quotient + 0;
    const sign = n < 0 !== d < 0 ? -1 : 1;
    return quotient + roundingStep(rounding, sign, quotient % 2 !== 0, compareHalf(Math.abs(remainder) * 2, Math.abs(d))) + 0;
  }
  const bn = big(n);
  const bd = big(d);
  const quotient = bn / bd;
  const remainder = bn - quotient * bd;
  if (remainder === 0n) return rawOf(quotient);
  const sign = bn < 0n !== bd < 0n ? -1 : 1;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  const magnitude = bd < 0n ? -bd : bd;
  const half = twice < magnitude ? -1 : twice > magnitude ? 1 : 0;
  return rawOf(quotient + BigInt(roundingStep(rounding, sign, quotient % 2n !== 0n, half)));
}

function compareHalf(twiceRemainder: number, divisor: number): number {
  return twiceRemainder < divisor ? -1 : twiceRemainder > divisor ? 1 : 0;
}

/**
 * What to add to a truncated quotient with a non-zero remainder: `sign` is the exact quotient's sign,
 * `half` how the remainder compares with half the divisor.
 */
function roundingStep(rounding: Rounding, sign: number, odd: boolean, half: number): number {
  switch (rounding) {
    case 'down':
      return 0;
    case 'floor':
      return sign < 0 ? -1 : 0;
    case 'ceil':
      return sign > 0 ? 1 : 0;
    case 'half-up':
      return half >= 0 ? sign : 0;
    case 'half-even':
      return half > 0 || (half === 0 && odd) ? sign : 0;
  }
}

/** Decimal text of raw × 10^-precision: plain notation, no trailing zeros after the point. */
export function formatRaw(raw: Raw, precision: number): string {
  const negative = raw < 0;
  let digits = String(negative ? -raw : raw);
  if (precision === 0) return negative ? `-${digits}` : digits;
  if (digits.length <= precision) digits = '0'.repeat(precision - digits.length + 1) + digits;
  const point = digits.length - precision;
  let end = digits.length;
  while (end > point && digits.charCodeAt(end - 1) === 48) end -= 1;
  const text = end === point ? digits.slice(0, point) : `${digits.slice(0, point)}.${digits.slice(point, end)}`;
  return negative ? `-${text}` : text;
}

/** Decimal text with exactly `places` places (raw already at that precision or coarser). */
export function formatRawPadded(raw: Raw, precision: number, places: number): string {
  const scaled = scaleRaw(raw, places - precision);
  const negative = scaled < 0;
  let digits = String(negative ? -scaled : scaled);
  if (places === 0) return negative ? `-${digits}` : digits;
  if (digits.length <= places) digits = '0'.repeat(places - digits.length + 1) + digits;
  const point = digits.length - places;
  const text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${text}` : text;
}

/** Exponents beyond this are refused rather than spelled out digit by digit. */
const MAX_EXPONENT = 400;
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** What parseRaw read (module state, so parsing allocates no pair). */
export const parsed = { raw: 0 as Raw, precision: 0 };

/** Reads decimal text ("12.50", "-3", "1e-7") into `parsed`; false when it is not a decimal number. */
export function parseRaw(text: string): boolean {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (match === null) return false;
  const whole = match[2] ?? '';
  const fraction = match[3] ?? '';
  const exponent = Number(match[4] ?? 0);
  if ((whole.length === 0 && fraction.length === 0) || Math.abs(exponent) > MAX_EXPONENT) return false;
  let digits = whole + fraction;
  let precision = fraction.length - exponent;
  if (precision < 0) {
    digits += '0'.repeat(-precision);
    precision = 0;
  }
  // Places beyond what a value may carry are accepted only as trailing zeros.
  while (precision > MAX_PRECISION && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    precision -= 1;
  }
  if (precision > MAX_PRECISION) return false;
  let start = 0;
  while (start < digits.length - 1 && digits.charCodeAt(start) === 48) start += 1;
  digits = digits.slice(start);
  const magnitude: Raw = digits.length <= 15 ? Number(digits) : rawOf(BigInt(digits));
  parsed.raw = match[1] === '-' ? negateRaw(magnitude) : magnitude;
  parsed.precision = precision;
  return true;
}

/** Below 2^51 the product of a float and 10^k is within 1/4 of the whole number it stands for. */
const FLOAT_WHOLE_LIMIT = 2 ** 51;
/** The most places the float shortcut looks for; longer floats go through their text. */
const FLOAT_SHORTCUT_PLACES = 8;

/**
 * Reads a finite float into `parsed` as the decimal of its shortest round-trip text (what String(value)
 * prints), so a price read from "123.45" is 123.45 exactly. The fewest places k with
 * round(|v| × 10^k) / 10^k === |v| are those of the shortest text while the whole number stays below
 * 2^51 (two k-place decimals are then too far apart to round to one float); other floats go through
 * their text. The test suite checks both routes against String(value).
 */
export function floatRaw(value: number): void {
  const places = floatPlaces(value);
  if (places < 0) {
    floatRawFromText(value);
    return;
  }
  parsed.raw = Math.round(value * POWERS_OF_TEN[places]!) + 0;
  parsed.precision = places;
}

/**
 * The places of a float's shortest text when they are at most 8 and its digits stay below 2^51 (then
 * Math.round(value × 10^places) is its raw); −1 otherwise (longer, larger, or not finite).
 */
export function floatPlaces(value: number): number {
  const magnitude = Math.abs(value);
  for (let places = 0; places <= FLOAT_SHORTCUT_PLACES; places += 1) {
    const whole = Math.round(magnitude * POWERS_OF_TEN[places]!);
    if (!(whole < FLOAT_WHOLE_LIMIT)) return -1;
    if (whole / POWERS_OF_TEN[places]! === magnitude) return places;
  }
  return -1;
}

/**
 * floatPlaces, checking the places `hint` first (a price series keeps its places from one value to the next):
 * exact at `hint` and not at hint − 1 is the answer, since a float exact at k places is exact at every k' > k.
 */
export function floatPlacesNear(value: number, hint: number): number {
  if (hint >= 0 && hint <= FLOAT_SHORTCUT_PLACES) {
    const magnitude = Math.abs(value);
    const whole = Math.round(magnitude * POWERS_OF_TEN[hint]!);
    if (whole < FLOAT_WHOLE_LIMIT && whole / POWERS_OF_TEN[hint]! === magnitude) {
      if (hint === 0) return 0;
      const coarser = Math.round(magnitude * POWERS_OF_TEN[hint - 1]!);
      if (coarser / POWERS_OF_TEN[hint - 1]! !== magnitude) return hint;
    }
  }
  return floatPlaces(value);
}

/**
 * The reference route of floatRaw: the float's shortest text, parsed. A float past 2^53 − 1 is a whole
 * number whose shortest text is another one (2^60 prints as 1152921504606847000): it is taken exactly.
 */
export function floatRawFromText(value: number): void {
  if (!Number.isFinite(value)) throw new FixedPointError('NOT_A_NUMBER', `${value} is not a finite number`);
  if (value > SAFE || value < -SAFE) {
    parsed.raw = BigInt(value);
    parsed.precision = 0;
    return;
  }
  if (!parseRaw(String(value))) throw new FixedPointError('PRECISION_EXCEEDED', `${value} has more than ${MAX_PRECISION} decimal places`);
}

/**
 * What a value may be given as: a float (taken as its shortest text below 2^53, exactly beyond), decimal
 * text, or another value.
 */
export type FixedInput = number | string | FixedPoint;

/** Reads an input into `parsed`; bad input is an InvalidInputError naming `field`. */
export function readInput(value: FixedInput, field: string): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidInputError(`${field}: ${value} is not a finite number`, field);
    floatRaw(value);
  } else if (typeof value === 'string') {
    if (!parseRaw(value))
      throw new InvalidInputError(`${field}: "${value}" is not a decimal number (at most ${MAX_PRECISION} places)`, field);
  } else if (value instanceof FixedPoint) {
    parsed.raw = value.raw;
    parsed.precision = value.precision;
  } else throw new InvalidInputError(`${field}: ${String(value)} is not a number`, field);
}

/** raw × 10^-precision as the nearest float. */
export function rawToNumber(raw: Raw, precision: number): number {
  // Both operands exact floats: one division rounds correctly.
  if (typeof raw === 'number' && precision < POWERS_OF_TEN.length) return precision === 0 ? raw : raw / POWERS_OF_TEN[precision]!;
  return Number(formatRaw(raw, precision));
}

/** The fewest places that hold raw × 10^-precision exactly (trailing zeros dropped). */
export function significantPrecision(raw: Raw, precision: number): number {
  if (raw === 0) return 0;
  let places = precision;
  if (typeof raw === 'number') {
    while (places > 0 && raw % 10 === 0) {
      raw /= 10;
      places -= 1;
    }
    return places;
  }
  let value = raw;
  while (places > 0 && value % 10n === 0n) {
    value /= 10n;
    places -= 1;
  }
  return places;
}

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
