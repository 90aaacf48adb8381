// A paper run learns of a split at the start of its ex-date, through the real simulator on 127.0.0.1: the
// protocol pushes no corporate actions, so the runtime reconciles when a market day starts for a market it
// holds positions in and its simulator books an action for, and the strategy's book has the split's shares
// before it sees the day's first bar.
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import type { CorporateAction } from '../../src/domain/corporate-action.js';
import { Fixed } from '../../src/domain/fixed.js';
import { AAPL, dayBar, scripted } from '../support/backtest/scripted.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

const DAYS = ['02', '03', '04', '05', '08', '09', '10', '11'];
// Unadjusted prices: a third lower from the 1.5-for-1 split on the 9th (the sixth bar) on.
const CLOSES = [100, 101, 102, 101, 103, 68, 69, 70];
const BARS: Candle[] = CLOSES.map((close, index) => {
  const open = CLOSES[index - 1] ?? close;
  return dayBar(AAPL, `2024-01-${DAYS[index]!}`, open, Math.max(open, close) + 1, Math.min(open, close) - 1, close);
});
const SPLIT: CorporateAction[] = [{ kind: 'split', symbol: AAPL, exDate: '2024-01-09', ratio: Fixed.of('1.5') }];
const SPLIT_BAR = 5;

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

describe('reconciliation at the start of a market day in paper mode', () => {
  it("shows the strategy a split's shares on the ex-date's first bar, and target(0) then sells all of them", async () => {
    const seen: string[] = [];
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.buy(101),
      [SPLIT_BAR]: (ctx) => {
        seen.push(ctx.positions.quantity().toFixed());
        return ctx.target(0);
      },
    });
    harness = await startPaperHarness({ strategies: [strategy], candles: [BARS], actions: SPLIT });
    await harness.stepAll();

    // 101 × 1.5 = 151.5: 151 shares, the half paid in cash.
    expect(seen).toEqual(['151']);
    expect(harness.ofType('fill').map((event) => `${event.fill.side} ${event.fill.quantity.toFixed()}`)).toEqual(['Buy 101', 'Sell 151']);
    expect(harness.sim.venue.positions().filter((held) => !held.quantity.isZero())).toEqual([]);
    // One pass, on the ex-date: the simulator says which days it books actions on (the start's pass is over
    // before the harness listens).
    expect(harness.ofType('reconciled')).toHaveLength(1);
  });

  it('makes no pass on the days the simulator books no action for what it holds: a fast replay is not slowed against the call limits', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(101) });
    harness = await startPaperHarness({ strategies: [strategy], candles: [BARS.slice(0, SPLIT_BAR)], actions: SPLIT });
    await harness.stepAll();

    expect(harness.ofType('fill')).toHaveLength(1);
    expect(harness.ofType('reconciled')).toEqual([]);
  });

  it('does not reconcile at day starts while it holds nothing', async () => {
    harness = await startPaperHarness({ strategies: [scripted([AAPL], {})], candles: [BARS], actions: SPLIT });
    await harness.stepAll();

    expect(harness.ofType('reconciled')).toEqual([]);
  });
});
