// Decimal operations that skip work whose answer is known: adding or subtracting zero, multiplying or
// dividing by one, max(0, x), and small whole numbers to floats. Each gives exactly what the plain decimal.js call gives (same digits,
// same sign of zero); the shortcut is taken only for operands of at most 35 significant digits (five
// base-1e7 words), which the 40-digit precision leaves untouched, and the plain call runs otherwise.
import { Decimal, ZERO } from './decimal.js';

const SHORT_WORDS = 5;

/** A finite, non-zero value short enough that rounding it to the precision changes nothing. */
function shortNonZero(value: Decimal): boolean {
  const digits = value.d;
  return digits !== null && digits[0] !== 0 && digits.length <= SHORT_WORDS;
}

/** a + b (decimal.js returns the non-zero operand when the other is zero). */
export function plus(a: Decimal, b: Decimal): Decimal {
  if (b.isZero() && shortNonZero(a)) return a;
  if (a.isZero() && shortNonZero(b)) return b;
  return a.plus(b);
}

/** a − b (decimal.js returns a when b is zero and a is not). */
export function minus(a: Decimal, b: Decimal): Decimal {
  if (b.isZero() && shortNonZero(a)) return a;
  return a.minus(b);
}

/** Exactly one (the margin factor of a cash account, mostly). */
function isOne(value: Decimal): boolean {
  const digits = value.d;
  return digits !== null && digits.length === 1 && digits[0] === 1 && value.e === 0 && value.s === 1;
}

/** a × b (a factor of one changes nothing). */
export function times(a: Decimal, b: Decimal): Decimal {
  if (isOne(b) && shortNonZero(a)) return a;
  if (isOne(a) && shortNonZero(b)) return b;
  return a.times(b);
}

/** a ÷ b (dividing by one changes nothing). */
export function dividedBy(a: Decimal, b: Decimal): Decimal {
  if (isOne(b) && shortNonZero(a)) return a;
  return a.dividedBy(b);
}

/** value.gt(0). */
export function isPositive(value: Decimal): boolean {
  const digits = value.d;
  if (digits === null) return value.gt(0);
  return value.s > 0 && digits[0] !== 0;
}

/** value.abs() for a finite value (the value itself when not negative). */
export function abs(value: Decimal): Decimal {
  if (value.d === null) return value.abs();
  return value.s < 0 ? value.negated() : value;
}

/** Decimal.max(ZERO, value) for a finite value: the value when positive, else zero. */
export function atLeastZero(value: Decimal): Decimal {
  if (value.d === null) return Decimal.max(ZERO, value);
  return value.s > 0 && value.d[0] !== 0 ? value : ZERO;
}

/**
 * value.toNumber(), without the trip through text for whole numbers below 10^14 (quantities, mostly).
 * decimal.js keeps seven digits per word, the first word holding (e mod 7) + 1 of them.
 */
export function toNumber(value: Decimal): number {
  const digits = value.d;
  if (digits !== null) {
    const exponent = value.e;
    if (digits.length === 1 && exponent >= 0 && exponent < 7) return value.s * digits[0]!;
    if (digits.length === 2 && exponent >= 7 && exponent < 14) return value.s * (digits[0]! * 1e7 + digits[1]!);
  }
  return value.toNumber();
}
