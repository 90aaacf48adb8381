// Decimal operations without work whose answer is known, or copies decimal.js makes: adding or subtracting
// zero, multiplying or dividing by one, max(0, x), comparisons, and conversions to floats; sums and
// products of short values are worked out in whole numbers (scaled-decimal.ts). Each gives exactly what
// the plain decimal.js call gives (same digits, same sign of zero); arithmetic shortcuts are taken only
// for operands of at most 35 significant digits (five base-1e7 words), which the 40-digit precision leaves
// untouched, and the plain call runs otherwise.
import { Decimal, ZERO } from './decimal.js';
import { POWERS_OF_TEN, decimalOfScaled, readScaled, scaled } from './scaled-decimal.js';

const SHORT_WORDS = 5;

/** A finite, non-zero value short enough that rounding it to the precision changes nothing. */
function shortNonZero(value: Decimal): boolean {
  const digits = value.d;
  return digits !== null && digits[0] !== 0 && digits.length <= SHORT_WORDS;
}

/**
 * a + b. decimal.js returns the non-zero operand when the other is zero, and for two zeros the first one
 * when their signs agree, else +0.
 */
export function plus(a: Decimal, b: Decimal): Decimal {
  if (b.isZero()) {
    if (shortNonZero(a)) return a;
    if (a.isZero()) return a.s === b.s ? a : ZERO;
  }
  if (a.isZero() && shortNonZero(b)) return b;
  return sums.of(a, b) ?? sums.remember(a, b, scaledSum(a, b, b.s) ?? a.plus(b));
}

/**
 * a − b. decimal.js returns a when b is zero and a is not, +0 for equal values (and for two zeros, but
 * −0 − +0, which is −0).
 */
export function minus(a: Decimal, b: Decimal): Decimal {
  if (b.isZero()) {
    if (shortNonZero(a)) return a;
    if (a.isZero() && !(a.s < 0 && b.s > 0)) return ZERO;
  } else if (a.d !== null && b.d !== null && a.s === b.s && a.e === b.e && compare(a, b) === 0) {
    return ZERO;
  }
  return differences.of(a, b) ?? differences.remember(a, b, scaledSum(a, b, -b.s) ?? a.minus(b));
}

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * a + (bSign × |b|) in whole numbers over the finer of the two scales, when both are short non-zero values
 * and every step stays below 2^53 (so every step is exact); undefined otherwise. A zero sum is +0, as
 * decimal.js gives it when rounding half even.
 */
function scaledSum(a: Decimal, b: Decimal, bSign: number): Decimal | undefined {
  if (!readScaled(a)) return undefined;
  const aWhole = scaled.whole;
  const aScale = scaled.scale;
  if (!readScaled(b)) return undefined;
  const scale = Math.max(aScale, scaled.scale);
  if (scale - aScale > 16 || scale - scaled.scale > 16) return undefined;
  const left = aWhole * POWERS_OF_TEN[scale - aScale]!;
  const right = scaled.whole * POWERS_OF_TEN[scale - scaled.scale]!;
  if (left > SAFE || right > SAFE) return undefined;
  const sum = a.s * left + bSign * right;
  if (sum === 0) return ZERO;
  return sum > SAFE || sum < -SAFE ? undefined : decimalOfScaled(sum < 0 ? -1 : 1, Math.abs(sum), scale);
}

/** a × b in whole numbers when both are short non-zero values and the product stays below 2^53. */
function scaledProduct(a: Decimal, b: Decimal): Decimal | undefined {
  if (!readScaled(a)) return undefined;
  const aWhole = scaled.whole;
  const aScale = scaled.scale;
  if (!readScaled(b)) return undefined;
  const product = aWhole * scaled.whole;
  return product > SAFE ? undefined : decimalOfScaled(a.s * b.s, product, aScale + scaled.scale);
}

/**
 * The last few results of one operation, by operand identity. The venue and the executor book the same
 * fill with the very same Decimals (its quantity and price, the position they both opened), so the second
 * of each pair of identical calls is a lookup.
 */
class RecentResults {
  private readonly lefts: (Decimal | undefined)[] = [undefined, undefined, undefined, undefined];
  private readonly rights: (Decimal | undefined)[] = [undefined, undefined, undefined, undefined];
  private readonly results: (Decimal | undefined)[] = [undefined, undefined, undefined, undefined];
  private next = 0;

  of(a: Decimal, b: Decimal): Decimal | undefined {
    for (let index = 0; index < 4; index += 1) if (this.lefts[index] === a && this.rights[index] === b) return this.results[index];
    return undefined;
  }

  remember(a: Decimal, b: Decimal, result: Decimal): Decimal {
    this.lefts[this.next] = a;
    this.rights[this.next] = b;
    this.results[this.next] = result;
    this.next = (this.next + 1) & 3;
    return result;
  }
}

const sums = new RecentResults();
const differences = new RecentResults();
const products = new RecentResults();

/** Exactly one (the margin factor of a cash account, mostly). */
function isOne(value: Decimal): boolean {
  const digits = value.d;
  return digits !== null && digits.length === 1 && digits[0] === 1 && value.e === 0 && value.s === 1;
}

/**
 * a × b (a factor of one changes nothing; a finite zero factor makes a zero signed by both operands; the
 * same two Decimals multiplied again give the product already made).
 */
export function times(a: Decimal, b: Decimal): Decimal {
  if (isOne(b) && shortNonZero(a)) return a;
  if (isOne(a) && shortNonZero(b)) return b;
  if ((a.isZero() || b.isZero()) && a.d !== null && b.d !== null && a.s === b.s) return ZERO;
  return products.of(a, b) ?? products.remember(a, b, scaledProduct(a, b) ?? a.times(b));
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
 * Decimal.min(a, b) without the copies decimal.js makes of both: the smaller operand itself. Of two equal
 * values decimal.js takes the second unless the first is negative, which only decides the sign of a zero
 * (min(+0, −0) is −0, min(−0, +0) is −0); this does the same.
 */
export function min(a: Decimal, b: Decimal): Decimal {
  if (a.d === null || b.d === null) return Decimal.min(a, b);
  const order = compare(a, b);
  return order === 1 || (order === 0 && a.s === 1) ? b : a;
}

/**
 * value.toNumber() without the trip through text: the digits as a whole number N below 2^53 times a power
 * of ten up to 10^22 are both exact floats, so one multiplication or division rounds correctly, as
 * parsing the text does. decimal.js keeps seven digits per word: value = Σ d[i] · 10^(7·(⌊e/7⌋ − i)).
 */
export function toNumber(value: Decimal): number {
  const digits = value.d;
  if (digits !== null && digits.length <= 3) {
    let whole = digits[0]!;
    for (let index = 1; index < digits.length; index += 1) whole = whole * 1e7 + digits[index]!;
    if (whole <= Number.MAX_SAFE_INTEGER) {
      const power = 7 * (Math.floor(value.e / 7) - digits.length + 1);
      if (power >= 0 && power <= 22) return value.s * (whole * POWERS_OF_TEN[power]!);
      if (power < 0 && power >= -22) return value.s * (whole / POWERS_OF_TEN[-power]!);
    }
  }
  return value.toNumber();
}

let lastFixed: Decimal | undefined;
let lastFixedText = '';

/** value.toFixed(), remembered for the last value (a fill's id is written by the venue and the executor). */
export function toFixed(value: Decimal): string {
  if (value !== lastFixed) {
    lastFixedText = value.toFixed();
    lastFixed = value;
  }
  return lastFixedText;
}

/** a.cmp(b) without the copy of b decimal.js makes first (comparisons run on every order). */
export function compare(a: Decimal, b: Decimal): number {
  const ad = a.d;
  const bd = b.d;
  if (ad === null || bd === null) return a.cmp(b);
  const as = a.s;
  if (ad[0] === 0 || bd[0] === 0) return ad[0] !== 0 ? as : bd[0] !== 0 ? -b.s : 0;
  if (as !== b.s) return as;
  if (a.e !== b.e) return a.e > b.e !== as < 0 ? 1 : -1;
  const shorter = Math.min(ad.length, bd.length);
  for (let index = 0; index < shorter; index += 1) {
    if (ad[index] !== bd[index]) return ad[index]! > bd[index]! !== as < 0 ? 1 : -1;
  }
  return ad.length === bd.length ? 0 : ad.length > bd.length !== as < 0 ? 1 : -1;
}

/** a.eq(b), a.gt(b), a.gte(b), a.lt(b), a.lte(b) through compare. */
export function eq(a: Decimal, b: Decimal): boolean {
  return (a === b && a.d !== null) || compare(a, b) === 0;
}

export function gt(a: Decimal, b: Decimal): boolean {
  return compare(a, b) > 0;
}

export function gte(a: Decimal, b: Decimal): boolean {
  const order = compare(a, b);
  return order === 1 || order === 0;
}

export function lt(a: Decimal, b: Decimal): boolean {
  return compare(a, b) < 0;
}

export function lte(a: Decimal, b: Decimal): boolean {
  const order = compare(a, b);
  return order === -1 || order === 0;
}
