// `trader cash-flow` against `trader sim`: the simulator's cash-flow ledger through our HTTP client shows what
// the venue booked between fills (dividends paid to a long and charged to a short, a split's shares and its
// cash in lieu, the borrow fee of a short) beside the fills' settlements and fees, each with the business
// type of the official API (1 cash, 2 stock), and the cash rows add up to the change in each currency's cash.
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.js';
import { Fixed } from '../../../src/domain/fixed.js';
import { Price } from '../../../src/domain/price.js';
import { Quantity } from '../../../src/domain/quantity.js';
import type { CorporateAction } from '../../../src/domain/corporate-action.js';
import type { CashFlow } from '../../../src/openapi/http/types.js';
import { HK, US } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';

let h: SimHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ACTIONS: CorporateAction[] = [
  { kind: 'dividend', symbol: HK, exDate: '2024-01-03', perShare: Price.of('1.5') },
  { kind: 'split', symbol: HK, exDate: '2024-01-04', ratio: Fixed.of('1.5') },
  { kind: 'dividend', symbol: US, exDate: '2024-01-03', perShare: Price.of('0.5') },
];

const row = (flow: CashFlow): string =>
  `${flow.name} | ${flow.businessType} | ${flow.direction}${flow.symbol === undefined ? '' : ` | ${flow.symbol}`}`;

describe('cash flow over the wire', () => {
  it('lists dividends paid and charged, a split with its cash in lieu, the borrow fee and the fees, summing to the cash', async () => {
    h = await startSimHarness({
      actions: ACTIONS,
      venue: {
        instruments: { [HK]: { lotSize: 1 } },
        shortSelling: true,
        borrowFeeRate: 0.0365,
        fees: { commissionRate: 0.001 },
      },
    });
    h.stepUntil((tick) => tick.symbol === HK && tick.point === 'close');
    await h.http.submitOrder({ symbol: HK, side: 'Buy', orderType: 'MO', quantity: Quantity.of(101), timeInForce: 'Day' });
    h.stepUntil((tick) => tick.symbol === US && tick.point === 'close');
    await h.http.submitOrder({ symbol: US, side: 'Sell', orderType: 'MO', quantity: Quantity.of(100), timeInForce: 'Day' });
    while (h.step() !== undefined);

    const flows = await h.http.cashFlow({ startAt: 0, endAt: Date.parse('2030-01-01') });
    // Newest first, as the service lists them.
    const oldestFirst = [...flows].reverse();
    expect(oldestFirst.map(row)).toEqual([
      'Buy 700.HK | cash | out | 700.HK',
      'Fees 700.HK | cash | out | 700.HK',
      'Buy 700.HK | stock | in | 700.HK',
      'Sell AAPL.US | cash | in | AAPL.US',
      'Fees AAPL.US | cash | out | AAPL.US',
      'Sell AAPL.US | stock | out | AAPL.US',
      'Dividend 700.HK | cash | in | 700.HK',
      'Borrow fee AAPL.US | cash | out | AAPL.US',
      'Dividend AAPL.US | cash | out | AAPL.US',
      'Split 700.HK | stock | in | 700.HK',
      'Cash in lieu 700.HK | cash | in | 700.HK',
      'Borrow fee AAPL.US | cash | out | AAPL.US',
    ]);
    const amount = (name: string): string[] => oldestFirst.filter((flow) => flow.name === name).map((flow) => flow.balance.toFixed());
    expect(amount('Dividend 700.HK')).toEqual(['151.5']); // 101 × 1.5
    expect(amount('Dividend AAPL.US')).toEqual(['50']); // a short of 100 × 0.5
    expect(amount('Split 700.HK')).toEqual(['50']); // 101 × 1.5 = 151.5: 50 more shares and half a share in cash
    const [position] = await h.http.positions([HK]);
    expect(position?.quantity.toFixed()).toBe('151');
    expect(oldestFirst.find((flow) => flow.name === 'Cash in lieu 700.HK')?.description).toBe(
      'Fractional share of a 1.5-for-1 split of 700.HK paid in cash',
    );

    // Only cash rows, of one symbol, through the query's filters.
    const dividends = await h.http.cashFlow({ startAt: 0, endAt: Date.parse('2030-01-01'), businessType: 'cash', symbol: 'AAPL.US' });
    expect(dividends.map((flow) => flow.name)).toEqual([
      'Borrow fee AAPL.US',
      'Dividend AAPL.US',
      'Borrow fee AAPL.US',
      'Fees AAPL.US',
      'Sell AAPL.US',
    ]);

    for (const currency of ['HKD', 'USD']) {
      const moved = oldestFirst
        .filter((flow) => flow.businessType === 'cash' && flow.currency === currency)
        .reduce((sum, flow) => (flow.direction === 'in' ? sum.plus(flow.balance) : sum.minus(flow.balance)), new Decimal(0));
      const [balance] = await h.http.accountBalance(currency);
      expect(moved.plus(1_000_000).toFixed()).toBe(balance!.totalCash.toFixed());
    }
  });
});
