// The trades and open positions of a run follow the account through corporate actions and carry: a split
// scales the open lots (its cash in lieu closes the fraction), dividends and borrow fees are booked on the
// lots they were paid on, so Σ trades.pnl + Σ openPositions.unrealizedPnl = final equity − initial cash
// exactly, as the account itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BacktestRun } from '../../src/backtest/engine.js';
import { buildResult } from '../../src/backtest/report/result-builder.js';
import type { BacktestResult } from '../../src/backtest/result.js';
import type { Candle } from '../../src/domain/candle.js';
import type { CorporateAction } from '../../src/domain/corporate-action.js';
import { Fixed } from '../../src/domain/fixed.js';
import type { OrderIntent } from '../../src/domain/intent.js';
import { Money } from '../../src/domain/money.js';
import { Price } from '../../src/domain/price.js';
import { AAPL, backtest, dayBar, scripted, type ScriptContext } from '../support/backtest/scripted.js';

const DAYS = ['02', '03', '04', '05', '08', '09', '10', '11', '12', '16', '17', '18'];

/** Day bars from closes; each opens at the previous close (the first at its own). */
function bars(closes: readonly number[]): Candle[] {
  return closes.map((close, index) => {
    const open = closes[index - 1] ?? close;
    return dayBar(AAPL, `2024-01-${DAYS[index]!}`, open, Math.max(open, close) + 1, Math.min(open, close) - 1, close);
  });
}

// Unadjusted: the price halves at a 2-for-1 split on the 9th (the 6th bar).
const HALVING = bars([70, 71, 72, 71, 70, 35.5, 36, 36.5, 37]);
const split = (exDate: string, ratio: string): CorporateAction => ({ kind: 'split', symbol: AAPL, exDate, ratio: Fixed.of(ratio) });
const dividend = (exDate: string, perShare: string): CorporateAction => ({
  kind: 'dividend',
  symbol: AAPL,
  exDate,
  perShare: Price.of(perShare),
});
const SHORT = { shortSelling: true } as const;

type Step = (ctx: ScriptContext) => OrderIntent | readonly OrderIntent[];

async function run(
  series: readonly Candle[],
  script: Readonly<Record<number, Step>>,
  actions: readonly CorporateAction[],
  venue: Record<string, unknown> = {},
): Promise<{ run: BacktestRun; result: BacktestResult }> {
  const done = await backtest([series], [scripted([AAPL], script)], { actions, venue });
  return { run: done, result: buildResult(done.record) };
}

/** Σ trades.pnl + Σ openPositions.unrealizedPnl, and final equity − initial cash, both exact. */
function identity({ run: done, result }: { run: BacktestRun; result: BacktestResult }): { reported: string; account: string } {
  let reported = Money.zero('USD');
  for (const trade of result.trades) reported = reported.plus(Money.of(trade.pnl, 'USD'));
  for (const position of result.openPositions) reported = reported.plus(Money.of(position.unrealizedPnl, 'USD'));
  const account = done.venue.accountBalance('USD')[0]!.netAssets.minus(done.record.initialCash);
  return { reported: reported.normalized().toFixed(), account: account.normalized().toFixed() };
}

/** The account's position as "Long 20" / "Short 7". */
function held(done: BacktestRun): string[] {
  return done.venue
    .positions()
    .map((position) => `${position.quantity.isNegative() ? 'Short' : 'Long'} ${position.quantity.abs().toFixed()}`);
}

describe('trades and open positions through a split', () => {
  it('reports the shares the split made, at the entry price divided by the ratio', async () => {
    // Bought 10 on the 4th bar, filled at the 5th bar's open (71); the split comes before the 6th bar.
    const outcome = await run(HALVING, { 3: (ctx) => ctx.buy(10) }, [split('2024-01-09', '2')]);
    expect(held(outcome.run)).toEqual(['Long 20']);
    expect(outcome.result.openPositions).toMatchObject([{ side: 'Long', quantity: '20', averagePrice: '35.5', markPrice: '37' }]);
    const { reported, account } = identity(outcome);
    expect(reported).toBe(account);
  });

  it('keeps the side and quantity of the account when later fills close more than the pre-split lots', async () => {
    // 10 before the split (20 after), then 5 sold: long 15, not "short".
    const outcome = await run(HALVING, { 3: (ctx) => ctx.buy(10), 6: (ctx) => ctx.sell(5) }, [split('2024-01-09', '2')]);
    expect(held(outcome.run)).toEqual(['Long 15']);
    expect(outcome.result.openPositions).toMatchObject([{ side: 'Long', quantity: '15', averagePrice: '35.5' }]);
    expect(outcome.result.trades).toMatchObject([{ side: 'Long', quantity: '5', entryPrice: '35.5', exitPrice: '36' }]);
    const { reported, account } = identity(outcome);
    expect(reported).toBe(account);
  });

  it('closes a long fractional share paid in cash as a trade of its own', async () => {
    // 101 shares × 1.5 = 151.5: 151 kept, half a share paid at the new mark (71 ÷ 1.5 rounded, to the cent).
    const outcome = await run(HALVING, { 3: (ctx) => ctx.buy(101) }, [split('2024-01-09', '1.5')]);
    expect(held(outcome.run)).toEqual(['Long 151']);
    expect(outcome.result.openPositions).toMatchObject([{ side: 'Long', quantity: '151' }]);
    expect(outcome.result.trades).toHaveLength(1);
    expect(outcome.result.trades[0]).toMatchObject({ side: 'Long', quantity: '0.5', exitTag: 'cash-in-lieu' });
    const { reported, account } = identity(outcome);
    expect(reported).toBe(account);
  });

  it('closes a short fractional share it paid for in cash', async () => {
    // Short 5 × 1.5 = −7.5: short 7, the half share bought back in cash.
    const outcome = await run(HALVING, { 3: (ctx) => ctx.sell(5) }, [split('2024-01-09', '1.5')], SHORT);
    expect(held(outcome.run)).toEqual(['Short 7']);
    expect(outcome.result.openPositions).toMatchObject([{ side: 'Short', quantity: '7' }]);
    expect(outcome.result.trades).toMatchObject([{ side: 'Short', quantity: '0.5', exitTag: 'cash-in-lieu' }]);
    const { reported, account } = identity(outcome);
    expect(reported).toBe(account);
  });
});

describe('dividends and borrow fees in trades and open positions', () => {
  it('adds a dividend paid to a long to its trade', async () => {
    const outcome = await run(HALVING, { 1: (ctx) => ctx.buy(100), 6: (ctx) => ctx.sell(100) }, [dividend('2024-01-05', '0.25')]);
    expect(outcome.result.trades).toMatchObject([{ side: 'Long', quantity: '100', dividends: '25' }]);
    const { reported, account } = identity(outcome);
    expect(reported).toBe(account);
  });

  it('charges a dividend to a short still open', async () => {
    const outcome = await run(HALVING, { 1: (ctx) => ctx.sell(100) }, [dividend('2024-01-05', '0.25')], SHORT);
    expect(outcome.result.openPositions).toMatchObject([{ side: 'Short', quantity: '100', dividends: '-25' }]);
    const { reported, account } = identity(outcome);
    expect(reported).toBe(account);
  });

  it('charges the borrow fee of a short to it, open and closed', async () => {
    const venue = { ...SHORT, borrowFeeRate: 0.0365 };
    const closedShort = await run(HALVING, { 1: (ctx) => ctx.sell(100), 6: (ctx) => ctx.buy(60) }, [], venue);
    const [trade] = closedShort.result.trades;
    const [position] = closedShort.result.openPositions;
    expect(Money.of(trade!.borrowFees, 'USD').isPositive()).toBe(true);
    expect(Money.of(position!.borrowFees, 'USD').isPositive()).toBe(true);
    const { reported, account } = identity(closedShort);
    expect(reported).toBe(account);
  });
});

describe('the carry a run keeps', () => {
  it('keeps the daily borrow fees of a short between two fills of its symbol as one entry', async () => {
    const venue = { ...SHORT, borrowFeeRate: 0.0365 };
    const outcome = await run(HALVING, { 1: (ctx) => ctx.sell(100), 6: (ctx) => ctx.buy(60) }, [], venue);
    // Short from the 3rd bar's open, 60 bought back at the 8th's: 5 days' fees before, then 1 after.
    expect(outcome.run.record.carry?.map((entry) => [entry.kind, entry.fills])).toEqual([
      ['borrow-fee', 1],
      ['borrow-fee', 2],
    ]);
  });
});

describe('Σ trades.pnl + Σ openPositions.unrealizedPnl = final equity − initial cash', () => {
  const actions = [dividend('2024-01-04', '0.37'), split('2024-01-09', '1.5'), dividend('2024-01-11', '0.13'), split('2024-01-16', '0.5')];
  const closes = bars([70, 71, 72, 71, 70, 47, 48, 47.5, 48.25, 97, 96.5, 98]);
  const order = fc.record({
    bar: fc.integer({ min: 0, max: 10 }),
    side: fc.constantFrom('buy', 'sell'),
    quantity: fc.integer({ min: 1, max: 37 }),
  });

  it('holds exactly over runs with splits (cash in lieu), dividends, shorts and borrow fees', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(order, { minLength: 1, maxLength: 6 }), async (orders) => {
        // The orders of each bar, placed together on it.
        const script: Record<number, Step> = {};
        for (const bar of new Set(orders.map((order) => order.bar))) {
          const placed = orders.filter((order) => order.bar === bar);
          script[bar] = (ctx) => placed.map(({ side, quantity }) => (side === 'buy' ? ctx.buy(quantity) : ctx.sell(quantity)));
        }
        const outcome = await run(closes, script, actions, { shortSelling: true, borrowFeeRate: 0.05 });
        const { reported, account } = identity(outcome);
        expect(reported).toBe(account);
      }),
      { numRuns: 30, seed: 7 },
    );
  });
});
