// The raw arithmetic of fixed-point values: whole numbers in units of 10^-precision, safe integers while
// they fit and bigints beyond (never a rounded float). Sums, products, comparisons and formatting are
// exact; division takes its rounding from the caller.
import { InvalidInputError, TraderError } from './errors.js';

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

export const SAFE = Number.MAX_SAFE_INTEGER;
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

export function negateRaw(raw: Raw): Raw {
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
