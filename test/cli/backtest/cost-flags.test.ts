// --cash, --commission and --slippage: refused where the run could not keep them exactly, by name.
import { describe, expect, it } from 'vitest';
import { cashFlag, finalEquityNote, venueChoice } from '../../../src/cli/backtest/flags.js';
import { Money } from '../../../src/domain/money.js';

const venue = (flags: Record<string, string>) => () => venueChoice({ fill: 'next-open', intrabar: 'nearest-first', ...flags } as never);

describe('--cash', () => {
  it('takes any amount from a cent to 2^53 cents, exactly', () => {
    expect(cashFlag('0.01').toFixed()).toBe('0.01');
    expect(cashFlag('90071992547409').toFixed()).toBe('90071992547409');
  });

  it('refuses more than the equity curve keeps to the cent, less than a cent, and Infinity by any name', () => {
    for (const text of ['90071992547410', '1e20', '1e400'])
      expect(() => cashFlag(text)).toThrow(
        `--cash: at most 90,071,992,547,409 (the equity curve and its figures are kept to the cent up to there), got ${text}`,
      );
    expect(() => cashFlag('0.001')).toThrow('--cash: at least 0.01, got 0.001');
    expect(() => cashFlag('-5')).toThrow('--cash: must be greater than zero (got -5)');
  });
});

describe('the final equity beyond the --cash limit', () => {
  it('is noted with its exact figure when the float of the metrics misses its cents, and only then', () => {
    // 150,000,000 shares bought at 600,000 marked at 62,000,000.03, and 71,992,547,409 in cash.
    expect(finalEquityNote(Money.of('9300071997047409', 'USD'))).toBe(
      'note: the final equity, 9300071997047409 USD, is beyond 90,071,992,547,409, the most the equity curve and the metrics (floats) ' +
        'keep to the cent: metrics.finalEquity reads 9300071997047408; the trades and open positions are exact (their pnl added to the initial cash is the final equity)',
    );
    expect(finalEquityNote(Money.of('90071992547409', 'USD'))).toBeUndefined();
    expect(finalEquityNote(undefined)).toBeUndefined();
  });
});

describe('--commission and --slippage', () => {
  it('take rates with up to 12 and slippage with up to 6 decimal places', () => {
    expect(venue({ commission: '0.000000000001', slippage: '0.000001' })().settings).toMatchObject({
      fees: { commissionRate: 1e-12 },
      slippageBps: 0.000001,
    });
  });

  it('refuse finer ones, and slippage of 100 % or more (a sell would fill at 0), naming the flag', () => {
    expect(venue({ commission: '1e-30' })).toThrow('--commission: at most 12 decimal places, got 1e-30');
    expect(venue({ commission: '1e-41' })).toThrow('--commission: at most 12 decimal places, got 1e-41');
    expect(venue({ slippage: '1e-9' })).toThrow('--slippage: at most 6 decimal places, got 1e-9');
    expect(venue({ slippage: '10000' })).toThrow('--slippage: expected basis points from 0 to below 10000, got 10000');
    // Below 10,000 with up to 6 places, as the README says.
    expect(venue({ slippage: '9999.5' })).not.toThrow();
    expect(venue({ slippage: '9999.000001' })).not.toThrow();
  });
});

describe('--max-participation', () => {
  it("takes a share of a bar's volume in (0, 1] as the venue's participation, 1 (the whole volume) when not given", () => {
    expect(venue({ 'max-participation': '0.1' })().settings.volumeParticipation).toBe(0.1);
    expect(venue({ 'max-participation': '1' })().echo['maxParticipation']).toBe(1);
    expect(venue({})().settings.volumeParticipation).toBe(1);
  });

  it('refuses nothing, more than the whole volume and what is not a number, naming the flag', () => {
    for (const text of ['0', '-0.1', '1.5', 'ten', '', 'Infinity'])
      expect(venue({ 'max-participation': text })).toThrow(
        `--max-participation: expected a share of a bar's volume, more than 0 and at most 1 (0.1 = 10 %), got ${text}`,
      );
  });
});
