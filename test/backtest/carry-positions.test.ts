// What a strategy sees of the venue's carry in a backtest: after a split its position is the split one (so
// close() and target() trade the shares held, not the shares bought), and a dividend or borrow fee is in
// its cash and equity before the next fill.
import { describe, expect, it } from 'vitest';
import type { BacktestOptions } from '../../src/backtest/engine.js';
import type { Candle } from '../../src/domain/candle.js';
import type { CorporateAction } from '../../src/domain/corporate-action.js';
import { Fixed } from '../../src/domain/fixed.js';
import { Price } from '../../src/domain/price.js';
import { AAPL, backtest, dayBar, scripted, type ScriptContext } from '../support/backtest/scripted.js';

const DAYS = ['02', '03', '04', '05', '08', '09', '10', '11', '12'];
// Unadjusted closes: the price halves at a 2-for-1 split on the 9th (the 6th bar).
const CLOSES = [70, 71, 72, 71, 70, 35.5, 36, 36.5, 37];
const HALVING: Candle[] = CLOSES.map((close, index) => {
  const open = CLOSES[index - 1] ?? close;
  return dayBar(AAPL, `2024-01-${DAYS[index]!}`, open, Math.max(open, close) + 1, Math.min(open, close) - 1, close);
});
const SPLIT: CorporateAction = { kind: 'split', symbol: AAPL, exDate: '2024-01-09', ratio: Fixed.of('2') };
const DIVIDEND: CorporateAction = { kind: 'dividend', symbol: AAPL, exDate: '2024-01-09', perShare: Price.of('0.5') };

type Step = (ctx: ScriptContext) => ReturnType<ScriptContext['close']> | undefined;

async function fillsOf(
  script: Readonly<Record<number, Step>>,
  actions: readonly CorporateAction[],
  options: Partial<BacktestOptions> = {},
) {
  const done = await backtest([HALVING], [scripted([AAPL], script)], { actions, ...options });
  return {
    fills: done.record.fills.map((fill) => `${fill.side} ${fill.quantity.toFixed()}`),
    held: done.venue.positions().map((position) => position.quantity.toFixed()),
  };
}

describe('a strategy after a split', () => {
  it('sees the split quantity and average cost', async () => {
    const seen: string[] = [];
    const look: Step = (ctx) => {
      const position = ctx.positions.get();
      seen.push(`${position?.quantity.toFixed()} @ ${position?.averageCost.toFixed()}`);
      return undefined;
    };
    // 10 bought at the 5th bar's open (71); the split comes before the 6th bar.
    await fillsOf({ 3: (ctx) => ctx.buy(10), 4: look, 5: look }, [SPLIT]);
    expect(seen).toEqual(['10 @ 71', '20 @ 35.5']);
  });

  it('closes the whole split long with close()', async () => {
    const outcome = await fillsOf({ 3: (ctx) => ctx.buy(10), 6: (ctx) => ctx.close() }, [SPLIT]);
    expect(outcome.fills).toEqual(['Buy 10', 'Sell 20']);
    expect(outcome.held).toEqual([]);
  });

  it('buys back the whole split short with target(0)', async () => {
    const outcome = await fillsOf({ 3: (ctx) => ctx.sell(10), 6: (ctx) => ctx.target(0) }, [SPLIT], { venue: { shortSelling: true } });
    expect(outcome.fills).toEqual(['Sell 10', 'Buy 20']);
    expect(outcome.held).toEqual([]);
  });

  it('sells part of a split long without being taken for a short sale', async () => {
    // 15 of the 20 held: within the position, so no margin is asked (10 left in cash could not carry a short of 5).
    const outcome = await fillsOf({ 3: (ctx) => ctx.buy(10), 6: (ctx) => ctx.sell(15) }, [SPLIT], { cash: 720 });
    expect(outcome.fills).toEqual(['Buy 10', 'Sell 15']);
    expect(outcome.held).toEqual(['5']);
  });
});

describe('a strategy after a dividend', () => {
  it('counts the dividend in its cash and equity before the next fill', async () => {
    const seen: string[] = [];
    const look: Step = (ctx) => {
      seen.push(`${ctx.account.cash().toFixed()} ${ctx.equity().toFixed()}`);
      return undefined;
    };
    // 100 bought at 71 (cash 1,000,000 − 7,100); 50 paid before the 6th bar.
    await fillsOf({ 3: (ctx) => ctx.buy(100), 4: look, 5: look }, [DIVIDEND]);
    expect(seen).toEqual(['992900 999900', '992950 996500']);
  });
});
