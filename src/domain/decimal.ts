// decimal.js at the edges: wire types that are not domain values (statements, cash flows) keep Decimals,
// and every value goes out on the wire as plain decimal text. Domain values are fixed-point (Price,
// Quantity, Money, Fixed); decimal.js does no domain arithmetic.
import { Decimal } from './decimal-class.js';
import { InvalidInputError } from './errors.js';
import { FixedPoint } from './fixed-point.js';
import { POWERS_OF_TEN } from './fixed-raw.js';

export { Decimal };

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Parses a decimal string (the service's wire format). `field` names the input in the error. */
export function parseDecimal(text: string, field = 'value'): Decimal {
  const trimmed = text.trim();
  if (!DECIMAL_TEXT.test(trimmed)) throw new InvalidInputError(`${field}: "${text}" is not a decimal number`, field);
  return new Decimal(trimmed);
}

/** The service writes "" for "none"; this maps "" (and undefined/null) to undefined. */
export function parseOptionalDecimal(text: string | null | undefined, field = 'value'): Decimal | undefined {
  return isBlank(text) ? undefined : parseDecimal(text, field);
}

/** Whether a wire field says "none" ("", null or missing). */
export function isBlank(text: string | null | undefined): text is '' | null | undefined {
  return text === undefined || text === null || text.trim() === '';
}

/** Plain notation without exponent, as the service expects on the wire. */
export function toWire(value: Decimal | FixedPoint): string {
  return value instanceof FixedPoint ? value.toString() : value.toFixed();
}

export function isDecimal(value: unknown): value is Decimal {
  return value instanceof Decimal;
}

/** A fixed-point value as a Decimal, for arithmetic only decimal.js offers. */
export function decimalOf(value: FixedPoint): Decimal {
  return new Decimal(value.toString());
}

/**
 * a ÷ b as a float (report ratios): one float division when both sides are whole numbers below 2^53 at a
 * common scale (the division then rounds the exact quotient once), else the nearest float to the quotient
 * rounded to 40 significant digits by decimal.js.
 */
export function ratioOf(a: FixedPoint, b: FixedPoint | number): number {
  if (typeof b !== 'number' && typeof a.raw === 'number' && typeof b.raw === 'number') {
    const scale = POWERS_OF_TEN[Math.abs(a.precision - b.precision)];
    if (scale !== undefined) {
      const numerator = a.precision < b.precision ? a.raw * scale : a.raw;
      const denominator = b.precision < a.precision ? b.raw * scale : b.raw;
      if (Math.abs(numerator) <= Number.MAX_SAFE_INTEGER && Math.abs(denominator) <= Number.MAX_SAFE_INTEGER && denominator !== 0)
        return numerator / denominator;
    }
  }
  return decimalOf(a)
    .dividedBy(typeof b === 'number' ? b : decimalOf(b))
    .toNumber();
}
