// The heatmap's numbers get as many fraction digits as tell the values in view apart (the page's own code,
// evaluated here).
import { describe, expect, it } from 'vitest';
import { DECIMAL_PLACES_SCRIPT } from '../../../src/research/report/decimal-places.js';

const decimalPlaces = new Function(`${DECIMAL_PLACES_SCRIPT}; return decimalPlaces;`)() as (values: number[]) => number;
const texts = (values: number[]): string[] => values.map((value) => value.toFixed(decimalPlaces(values)));

describe('decimalPlaces', () => {
  it('tells apart values that three places round to one', () => {
    expect(texts([0.2236, 0.2237, 0.2238])).toEqual(['0.22360', '0.22370', '0.22380']);
  });

  it('shows small values (a CAGR of a tenth of a percent) with significant digits, not as 0.001', () => {
    expect(texts([0.00103, 0.00412, 0.00693])).toEqual(['0.0010', '0.0041', '0.0069']);
  });

  it('drops the fraction of large values and keeps three significant digits of a lone one', () => {
    expect(texts([1234.5, 5678.9, 9100])).toEqual(['1235', '5679', '9100']);
    expect(texts([0.012345])).toEqual(['0.0123']);
  });

  it('stops at three significant digits of the range for values closer than that', () => {
    expect(texts([0, 0.5, 1, 1.000001])).toEqual(['0.00', '0.50', '1.00', '1.00']);
  });

  it('keeps the digits that tell the values apart when one outlier stretches the range', () => {
    const values = [...Array.from({ length: 20 }, (_, index) => 1 + index * 0.05), 54];
    expect(texts(values).slice(0, 3)).toEqual(['1.00', '1.05', '1.10']);
    expect(texts(values).at(-1)).toBe('54.00');
  });

  it('ignores what is not a finite number', () => {
    expect(decimalPlaces([Number.NaN, Number.POSITIVE_INFINITY])).toBe(0);
    expect(decimalPlaces([0.5, Number.NaN, 0.75])).toBe(2);
  });
});
