// Short decimals as whole numbers over a power of ten, n × 10^-k with n below 2^53, where float arithmetic
// on n is exact; and a Decimal made straight from such a pair. decimal.js spends most of an addition or a
// product of two short values on copying its operand and building its result (about 250 ns here), and
// turns a float into a Decimal through the float's text; the same answers made from whole numbers take a
// few tens of ns. The Decimal made is the one decimal.js makes: its base-1e7 words `d` (most significant
// first, the first holding (e mod 7) + 1 digits, no trailing zero words), exponent `e` and sign `s`; the
// tests compare those with decimal.js's own.
import { Decimal } from './decimal-class.js';

const SAFE = Number.MAX_SAFE_INTEGER;
const WORD = 1e7;
/** 10^0 … 10^22, each an exact float (a table: `10 ** k` with k unknown to the compiler calls pow()). */
export const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, power) => Number(`1e${power}`));

/** The pair read by `readScaled`: |value| = whole × 10^-scale (module state, so reading allocates nothing). */
export const scaled = { whole: 0, scale: 0 };

/**
 * Reads a finite, non-zero `value` of at most three words into `scaled`; false when it is zero, not finite,
 * longer, or its whole number would reach 2^53.
 */
export function readScaled(value: Decimal): boolean {
  const digits = value.d;
  if (digits === null || digits[0] === 0 || digits.length > 3) return false;
  let whole = digits[0]!;
  for (let index = 1; index < digits.length; index += 1) whole = whole * WORD + digits[index]!;
  // value = whole × 10^power, decimal.js keeping seven digits per word.
  const power = 7 * (Math.floor(value.e / 7) - digits.length + 1);
  if (power > 0) {
    if (power > 22) return false;
    whole *= POWERS_OF_TEN[power]!;
    if (whole > SAFE) return false;
    scaled.whole = whole;
    scaled.scale = 0;
    return true;
  }
  if (whole > SAFE) return false;
  scaled.whole = whole;
  scaled.scale = -power;
  return true;
}

/** Below 2^51 a float's product with 10^k is within 1/4 of the whole number it stands for. */
const FLOAT_WHOLE_LIMIT = 2 ** 51;
/** The most decimal places shortestPlaces finds. */
export const MAX_FLOAT_PLACES = 8;

/**
 * The decimal places (0–8) of a float's shortest text, when its digits as a whole number stay below 2^51;
 * -1 otherwise (more places, too large, not finite). The fewest places k with round(|v| × 10^k) / 10^k
 * === |v| are those of the shortest text: below 2^51 two k-place decimals are too far apart to round to
 * one float, and fewer places would have been found first.
 */
export function shortestPlaces(value: number): number {
  const magnitude = Math.abs(value);
  for (let places = 0; places <= MAX_FLOAT_PLACES; places += 1) {
    const whole = Math.round(magnitude * POWERS_OF_TEN[places]!);
    if (whole >= FLOAT_WHOLE_LIMIT) return -1;
    if (whole / POWERS_OF_TEN[places]! === magnitude) return places;
  }
  return -1;
}

/** new Decimal(value) for a non-zero float with shortestPlaces ≥ 0; undefined otherwise. */
export function decimalOfFloat(value: number): Decimal | undefined {
  const places = shortestPlaces(value);
  if (places < 0 || value === 0) return undefined;
  return decimalOfScaled(value < 0 ? -1 : 1, Math.round(Math.abs(value) * POWERS_OF_TEN[places]!), places);
}

/** sign × whole × 10^-scale as decimal.js would hold it; `whole` a positive whole number below 2^53. */
export function decimalOfScaled(sign: number, whole: number, scale: number): Decimal {
  let length = 1;
  while (length < 16 && whole >= POWERS_OF_TEN[length]!) length += 1;
  const exponent = length - 1 - scale;
  // Digits in the first word: (e mod 7) + 1, e taken modulo 7 towards minus infinity.
  const first = (((exponent % 7) + 7) % 7) + 1;
  let words: number[];
  if (length <= first) words = [whole * POWERS_OF_TEN[first - length]!];
  else {
    // The digits after the first word, in words of seven, the last one padded with zeros on the right.
    const rest = length - first;
    const lastDigits = rest % 7 === 0 ? 7 : rest % 7;
    const tail = whole % POWERS_OF_TEN[lastDigits]!;
    let head = (whole - tail) / POWERS_OF_TEN[lastDigits]!;
    const last = tail * POWERS_OF_TEN[7 - lastDigits]!;
    if (rest <= 7) words = [head, last];
    else {
      const middle = head % WORD;
      head = (head - middle) / WORD;
      words = rest <= 14 ? [head, middle, last] : [(head - (head % WORD)) / WORD, head % WORD, middle, last];
    }
    while (words.length > 1 && words[words.length - 1] === 0) words.pop();
  }
  const made = Object.create(Decimal.prototype) as { constructor: unknown; s: number; e: number; d: number[] };
  made.constructor = Decimal;
  made.s = sign;
  made.e = exponent;
  made.d = words;
  return made as unknown as Decimal;
}
