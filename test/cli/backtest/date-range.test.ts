import { describe, expect, it } from 'vitest';
import { dateRangeOf } from '../../../src/cli/backtest/date-range.js';
import { parseSymbol } from '../../../src/domain/symbol.js';

const SPY = parseSymbol('SPY.US');

describe('--from and --to', () => {
  it('are New York dates for a US symbol, --to included', () => {
    expect(dateRangeOf('2024-03-01', '2024-03-31', SPY)).toEqual({
      from: Date.parse('2024-03-01T00:00:00-05:00'),
      to: Date.parse('2024-04-01T00:00:00-04:00'),
      text: { from: '2024-03-01', to: '2024-03-31' },
    });
  });

  it('refuse a month or a day that does not exist, instead of rolling it into another', () => {
    for (const [from, to] of [
      ['2000-13-05', undefined],
      [undefined, '2000-13-05'],
      ['2000-00-15', undefined],
      ['2024-02-30', undefined],
      ['2023-02-29', undefined],
      ['2024-01-00', undefined],
      ['0000-01-01', undefined],
    ] as const)
      expect(() => dateRangeOf(from, to, SPY)).toThrow(/^--(from|to): a date like 2015-01-31, got \d{4}-\d\d-\d\d$/);
    expect(dateRangeOf('2024-02-29', undefined, SPY)?.from).toBe(Date.parse('2024-02-29T00:00:00-05:00'));
  });

  it('read a year below 100 as that year, not as 19xx', () => {
    expect(new Date(dateRangeOf('0098-01-01', undefined, SPY)!.from).getUTCFullYear()).toBe(98);
  });
});
