import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heldExactly } from '../../../src/feeds/history/number-text.js';
import { copyDecimals } from '../../../src/feeds/history/parquet-decimal.js';

/** A DECIMAL cell as FIXED_LEN_BYTE_ARRAY stores it: big-endian two's complement in `size` bytes. */
function bytesOf(unscaled: bigint, size = 16): Uint8Array {
  const bytes = new Uint8Array(size);
  let rest = BigInt.asUintN(size * 8, unscaled);
  for (let index = size - 1; index >= 0; index -= 1) {
    bytes[index] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return bytes;
}

/** The decimal text of an unscaled integer at a scale. */
function textOf(unscaled: bigint, scale: number): string {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const point = digits.length - scale;
  return `${unscaled < 0n ? '-' : ''}${digits.slice(0, point)}${scale > 0 ? `.${digits.slice(point)}` : ''}`;
}

describe('Parquet DECIMAL cells', () => {
  it('read each stored integer, number, bigint or bytes, as the float Number() reads from its decimal text', () => {
    const into = new Float64Array(6);
    copyDecimals(
      [2850n, bytesOf(28_500_000_000_000_000_000n), bytesOf(-1234n, 4), 71_210_075, null, 7_121_007_500_000_000n],
      into,
      0,
      18,
      () => {
        throw new Error('all are held exactly');
      },
    );
    expect(Array.from(into)).toEqual([2.85e-15, 28.5, -1.234e-15, 7.121_007_5e-11, Number.NaN, 0.0071210075]);
  });

  it('match the CSV reader on any decimal: the same float, and told as inexact exactly when it has more digits than a float holds', () => {
    fc.assert(
      fc.property(
        // Integers around 2^53 (17 digits) often, where a float starts to miss some decimals, and longer ones.
        fc.oneof(fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n })),
        fc.integer({ min: 0, max: 30 }),
        fc.boolean(),
        (unscaled, scale, asBytes) => {
          const into = new Float64Array(1);
          let told: string | undefined;
          copyDecimals([asBytes ? bytesOf(unscaled) : unscaled], into, 0, scale, (_, text) => {
            told = text;
          });
          const text = textOf(unscaled, scale);
          expect(into[0]).toBe(Number(text));
          expect(told === undefined).toBe(heldExactly(text, Number(text)));
          if (told !== undefined) expect(Number(told)).toBe(Number(text));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
