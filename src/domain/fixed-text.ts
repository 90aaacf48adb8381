// Reading fixed-point values: decimal text, floats (as their shortest text) and other values, into the
// module's `parsed` pair (parsing allocates nothing on the hot paths).
import { InvalidInputError } from './errors.js';
import { FixedPoint } from './fixed-point.js';
import { FixedPointError, MAX_PRECISION, negateRaw, POWERS_OF_TEN, rawOf, type Raw } from './fixed-raw.js';

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
  if (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER) {
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
