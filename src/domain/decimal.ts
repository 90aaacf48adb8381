// Exact decimals for money, prices and quantities: parsed from and written as strings, never via floats.
import { Decimal } from './decimal-class.js';
import { InvalidInputError } from './errors.js';
import { decimalOfFloat } from './scaled-decimal.js';

export { Decimal };

export const ZERO: Decimal = new Decimal(0);

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Parses a decimal string (the service's wire format). `field` names the input in the error. */
export function parseDecimal(text: string, field = 'value'): Decimal {
  const trimmed = text.trim();
  if (!DECIMAL_TEXT.test(trimmed)) throw new InvalidInputError(`${field}: "${text}" is not a decimal number`, field);
  return new Decimal(trimmed);
}

/** The service writes "" for "none"; this maps "" (and undefined/null) to undefined. */
export function parseOptionalDecimal(text: string | null | undefined, field = 'value'): Decimal | undefined {
  if (text === undefined || text === null || text.trim() === '') return undefined;
  return parseDecimal(text, field);
}

// Prices recur (a bar's close is valued by the risk check and again by the venue; prices sit on a tick
// grid), so conversions are remembered in a small direct-mapped table keyed by the number's bits.
const CACHE_BITS = 12;
const cachedNumbers = new Float64Array(1 << CACHE_BITS);
const cachedDecimals: (Decimal | undefined)[] = new Array<Decimal | undefined>(1 << CACHE_BITS).fill(undefined);
const scratch = new Float64Array(1);
const scratchWords = new Uint32Array(scratch.buffer);

/**
 * A float from market data (candle prices) to a Decimal. Uses the shortest round-trip form of the
 * number, so a price read from the text "123.45" comes back as exactly 123.45.
 */
export function decimalFromNumber(value: number): Decimal {
  if (!Number.isFinite(value)) throw new InvalidInputError(`${value} is not a finite number`);
  // Zero is left out: 0 and -0 are equal numbers but different Decimals.
  if (value === 0) return new Decimal(value);
  scratch[0] = value;
  const slot = Math.imul(scratchWords[0]! ^ scratchWords[1]!, 0x9e3779b1) >>> (32 - CACHE_BITS);
  if (cachedNumbers[slot] === value) return cachedDecimals[slot]!;
  const decimal = decimalOfFloat(value) ?? new Decimal(value);
  cachedNumbers[slot] = value;
  cachedDecimals[slot] = decimal;
  return decimal;
}

/** Plain notation without exponent, as the service expects on the wire. */
export function toWire(value: Decimal): string {
  return value.toFixed();
}

export function isDecimal(value: unknown): value is Decimal {
  return value instanceof Decimal;
}
