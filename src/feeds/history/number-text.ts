// What a number's text holds: whether it is the float it reads as (a float's shortest text, or one written
// longer, as %.17g and numpy's %.18e write it), the rule of both candle readers (a CSV cell, a Parquet
// DECIMAL), and the places of text read the slow way.

/** parseNumber's answer for a number no float holds exactly (its value is the float nearest it). */
export const INEXACT = -3;

/** toPrecision's most significant digits. */
const MAX_DIGITS = 100;

/**
 * Whether `text` is `value` written out to the text's significant digits. A float's shortest text, and a
 * float written longer (%.17g, numpy's %.18e: 0.10000000000000001 for 0.1) are the float the writer held;
 * 14.000000000000001, between two floats, or a volume of 9007199254740993 past 2^53 are not.
 */
export function heldExactly(text: string, value: number): boolean {
  const written = decimalDigits(text);
  return written.digits.length <= MAX_DIGITS && sameDecimal(written, decimalDigits(value.toPrecision(Math.max(1, written.digits.length))));
}

interface DecimalDigits {
  readonly negative: boolean;
  /** The significant digits, without leading or trailing zeros ("" for zero). */
  readonly digits: string;
  /** Where the decimal point stands after the first of them. */
  readonly point: number;
}

function decimalDigits(text: string): DecimalDigits {
  const lower = text.toLowerCase();
  const e = lower.indexOf('e');
  const mantissa = e < 0 ? lower : lower.slice(0, e);
  const negative = mantissa.startsWith('-');
  const unsigned = mantissa.replace(/^[+-]/, '');
  const dot = unsigned.indexOf('.');
  const whole = dot < 0 ? unsigned : unsigned.slice(0, dot);
  const all = whole + (dot < 0 ? '' : unsigned.slice(dot + 1));
  const leading = all.length - all.replace(/^0+/, '').length;
  return {
    negative,
    digits: all.slice(leading).replace(/0+$/, ''),
    point: whole.length - leading + (e < 0 ? 0 : Number(lower.slice(e + 1))),
  };
}

function sameDecimal(a: DecimalDigits, b: DecimalDigits): boolean {
  if (a.digits === '' || b.digits === '') return a.digits === b.digits;
  return a.negative === b.negative && a.digits === b.digits && a.point === b.point;
}

/** A decimal number as text: a sign, digits with a fraction, an exponent. */
export const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Decimal places of a number read from unusual text (an exponent, a sign): those of its shortest decimal. */
export function placesOfText(value: number): number {
  if (Number.isInteger(value)) return 0;
  const text = String(Math.abs(value));
  const exponent = text.indexOf('e');
  if (exponent < 0) return text.length - text.indexOf('.') - 1;
  const mantissa = text.slice(0, exponent);
  const mantissaPlaces = mantissa.includes('.') ? mantissa.length - mantissa.indexOf('.') - 1 : 0;
  return Math.max(0, mantissaPlaces - Number(text.slice(exponent + 1)));
}
