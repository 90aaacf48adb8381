// Corporate actions and carry in paper mode, through the real simulator on 127.0.0.1: a dividend, a split with
// cash in lieu, a short charged a dividend and a borrow fee leave the paper account with the same cash and
// positions as the backtest of the same bars and actions. And sizing rounds to the board lots the venue
// enforces, in both.
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import type { CorporateAction } from '../../src/domain/corporate-action.js';
import { Fixed } from '../../src/domain/fixed.js';
import { Price } from '../../src/domain/price.js';
import type { Venue } from '../../src/sim/venue/venue.js';
import { AAPL, TENCENT, backtest, dayBar, scripted } from '../support/backtest/scripted.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

const DAYS = ['02', '03', '04', '05', '08', '09', '10', '11', '12'];

/** Day bars from closes; each opens at the previous close (the first at its own). */
function bars(symbol: typeof AAPL, closes: readonly number[]): Candle[] {
  return closes.map((close, index) => {
    const open = closes[index - 1] ?? close;
    return dayBar(symbol, `2024-01-${DAYS[index]!}`, open, Math.max(open, close) + 1, Math.min(open, close) - 1, close);
  });
}

// Unadjusted prices: they fall by a third at the 1.5-for-1 split on the 9th. The strategy buys 101 shares,
// is paid a dividend on them, has them split (151 and half a share in cash), then sells 251: short 100,
// charged the next dividend and a borrow fee for each calendar day the short is held.
const AAPL_BARS = bars(AAPL, [100, 101, 102, 101, 103, 68, 69, 70, 71]);
const ACTIONS: CorporateAction[] = [
  { kind: 'dividend', symbol: AAPL, exDate: '2024-01-05', perShare: Price.of('1') },
  { kind: 'split', symbol: AAPL, exDate: '2024-01-09', ratio: Fixed.of('1.5') },
  { kind: 'dividend', symbol: AAPL, exDate: '2024-01-11', perShare: Price.of('0.5') },
];
const VENUE = { shortSelling: true, borrowFeeRate: 0.0365 } as const;

const strategies = (): ReturnType<typeof scripted>[] => [scripted([AAPL], { 0: (ctx) => ctx.buy(101), 5: (ctx) => ctx.sell(251) })];

/** What the account ends with: cash, and each position's quantity and average cost. */
function books(venue: Venue): { cash: string; positions: string[] } {
  return {
    cash: venue.accountBalance('USD')[0]!.totalCash.toFixed(),
    positions: venue
      .positions()
      .map((held) => `${held.symbol} ${held.quantity.toFixed()} @ ${held.costPrice.toFixed()}`)
      .sort(),
  };
}

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

describe('corporate actions in paper mode', () => {
  it('leaves the paper account with the cash and positions of the backtest: dividends, a split, a short and its borrow fee', async () => {
    const run = await backtest([AAPL_BARS], strategies(), { actions: ACTIONS, venue: VENUE });
    const expected = books(run.venue);
    // 151 shares after the split (half a share paid in cash), then 251 sold: short 100.
    expect(expected.positions).toEqual(['AAPL.US -100 @ 68']);
    const untouched = books((await backtest([AAPL_BARS], strategies(), { venue: VENUE })).venue);
    expect(untouched.cash).not.toBe(expected.cash);

    harness = await startPaperHarness({
      strategies: strategies(),
      candles: [AAPL_BARS],
      actions: ACTIONS,
      venue: VENUE,
    });
    await harness.stepAll();

    expect(books(harness.sim.venue)).toEqual(expected);
    expect(
      harness.sim.venue
        .cashFlows()
        .filter((flow) => flow.flowId.startsWith('carry-'))
        .map((flow) => `${flow.name} ${flow.direction} ${flow.amount.toFixed()}`),
    ).toEqual([
      'Dividend AAPL.US in 101', // 101 × 1
      'Split AAPL.US in 50', // 101 × 1.5 = 151.5 shares
      'Cash in lieu AAPL.US in 34.33', // the half share at 103 ÷ 1.5
      'Borrow fee AAPL.US out 0.69', // short 100 × 69 × 0.0365 ÷ 365, for the 10th to the 11th
      'Dividend AAPL.US out 50', // charged to the short: 100 × 0.5
      'Borrow fee AAPL.US out 0.7',
    ]);
  });

  it('sizes targetPercent in whole board lots of the venue (700.HK: 100), in a backtest and in a paper run', async () => {
    const hk = bars(TENCENT, [97, 97.5, 98, 98.5, 99]);
    // 30 % of 100,000 at 97 is 309.27 shares: 300 in lots of 100 (309 in whole shares would be refused).
    const sizing = (): ReturnType<typeof scripted> => scripted([TENCENT], { 0: (ctx) => ctx.targetPercent(0.3) });
    const expectedFill = ['Buy 300'];
    const fillsOf = (events: readonly { type: string; fill?: { side: string; quantity: { toFixed(): string } } }[]) =>
      events.flatMap((event) => (event.type === 'fill' ? [`${event.fill!.side} ${event.fill!.quantity.toFixed()}`] : []));

    const run = await backtest([hk], [sizing()], { cash: 100_000 });
    expect(fillsOf(run.events)).toEqual(expectedFill);
    expect(run.denials).toEqual({});

    harness = await startPaperHarness({ strategies: [sizing()], candles: [hk], cash: 100_000 });
    await harness.stepAll();
    expect(fillsOf(harness.events)).toEqual(expectedFill);
    expect(harness.ofType('denial')).toEqual([]);
  });
});
