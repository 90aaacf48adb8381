// DECIMAL cells of a Parquet column read from their stored integers, each as the float nearest its decimal
// (what Number() reads from its text, as a CSV cell is read). hyparquet's own conversion, the integer times
// 10^-scale, misses that float for large integers: 28.5 as Spark's DECIMAL(38,18) came out 28.500000000000004.
import { heldExactly } from './number-text.js';

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);
/** Significant digits any float holds exactly: a decimal of at most these reads back as itself. */
const EXACT_DIGITS = 15;
const SHORT = 10n ** BigInt(EXACT_DIGITS);
const ZERO = 48;

/**
 * A page of a DECIMAL column into `into` from `rowStart`: its cells' unscaled integers (INT32 numbers, INT64
 * bigints, or big-endian two's-complement bytes for FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY), NaN where a cell is
 * missing. A decimal no float holds exactly is told to `onInexact` as its text and the float it reads as.
 */
export function copyDecimals(
  data: ArrayLike<unknown>,
  into: Float64Array,
  rowStart: number,
  scale: number,
  onInexact: (row: number, text: string, value: number) => void,
): void {
  const count = Math.min(data.length, into.length - rowStart);
  for (let index = 0; index < count; index += 1) {
    const stored = data[index];
    const unscaled = stored instanceof Uint8Array ? fromBytes(stored) : stored;
    into[rowStart + index] =
      typeof unscaled === 'number' || (typeof unscaled === 'bigint' && unscaled < SHORT && unscaled > -SHORT)
        ? scaled(Number(unscaled), scale)
        : typeof unscaled === 'bigint'
          ? fromText(unscaled, scale, (text, value) => onInexact(rowStart + index, text, value))
          : Number.NaN;
  }
}

/** An integer of at most 15 digits over 10^scale: both exact, so the quotient is the float nearest the decimal. */
function scaled(unscaled: number, scale: number): number {
  return scale < POWERS_OF_TEN.length ? unscaled / POWERS_OF_TEN[scale]! : Number(`${unscaled}e-${scale}`);
}

/** A decimal of a longer integer: short once its trailing zeros are dropped, or read from its text and checked. */
function fromText(unscaled: bigint, scale: number, onInexact: (text: string, value: number) => void): number {
  const negative = unscaled < 0n;
  const all = (negative ? -unscaled : unscaled).toString();
  let end = all.length;
  let places = scale;
  while (places > 0 && end > 1 && all.charCodeAt(end - 1) === ZERO) {
    end -= 1;
    places -= 1;
  }
  const digits = all.slice(0, end);
  if (digits.length <= EXACT_DIGITS) return scaled(negative ? -Number(digits) : Number(digits), places);
  const whole = digits.length > places ? digits.slice(0, digits.length - places) : '0';
  const fraction = places === 0 ? '' : `.${digits.slice(-places).padStart(places, '0')}`;
  const text = `${negative ? '-' : ''}${whole}${fraction}`;
  const value = Number(text);
  if (!heldExactly(text, value)) onInexact(text, value);
  return value;
}

/** A big-endian two's-complement integer. */
function fromBytes(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return bytes.length > 0 && bytes[0]! >= 0x80 ? value - (1n << BigInt(bytes.length * 8)) : value;
}
