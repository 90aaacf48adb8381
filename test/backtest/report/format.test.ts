import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatMoney, formatPercent, formatRatio } from '../../../src/backtest/report/format.js';

const intl = (minimum: number, maximum: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: minimum, maximumFractionDigits: maximum });
const money = intl(2, 2);
const whole = intl(0, 0);
const decimal = intl(0, 1);

/** Doubles of every size a result holds, ties at the rounding places, and the odd ones. */
const values = fc.oneof(
  fc.double({ noNaN: false }),
  fc.double({ min: -1e7, max: 1e7 }),
  fc.integer({ min: -1e9, max: 1e9 }).map((cents) => cents / 100 + 0.005),
  fc.integer({ min: -1e9, max: 1e9 }).map((tenths) => tenths / 10 + 0.05),
  fc.constantFrom(0, -0, 0.004, -0.004, 0.005, -0.005, 999.995, 1e21, -1e21, 1e20, Number.MAX_VALUE, Number.MIN_VALUE),
);

describe('number texts of the summary and the report', () => {
  it("are Intl's en-US texts: two places for money and ratios, grouped by thousands", () => {
    fc.assert(
      fc.property(values, (value) => {
        expect(formatMoney(value)).toBe(money.format(value));
        expect(formatRatio(value)).toBe(money.format(value));
      }),
      { numRuns: 5000 },
    );
  });

  it("are Intl's en-US texts for counts: whole numbers grouped, others to one place without a trailing zero", () => {
    fc.assert(
      fc.property(values, (value) => {
        expect(formatCount(value)).toBe(Number.isInteger(value) ? whole.format(value) : decimal.format(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('write percentages with two places and a sign when asked, in exponent form beyond a million percent', () => {
    expect(formatPercent(0.123456)).toBe('12.35%');
    expect(formatPercent(12.5, true)).toBe('+1,250.00%');
    expect(formatPercent(-0.07)).toBe('-7.00%');
    expect(formatPercent(6.09e36)).toBe('6.09e+38%');
    expect(formatMoney(null)).toBe('n/a');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(2.25)).toBe('2.3');
  });
});
