import { describe, expect, it } from 'vitest';
import { Quantity } from '../../src/domain/quantity.js';
import { InvalidInputError } from '../../src/domain/errors.js';
import { roundToUnits } from '../../src/strategy/sizing.js';
import { AAPL, backtest, dayBar, scripted } from '../support/backtest/scripted.js';

const BARS = [
  dayBar(AAPL, '2024-01-02', 10, 11, 9, 10),
  dayBar(AAPL, '2024-01-03', 10, 11, 9, 12),
  dayBar(AAPL, '2024-01-04', 12, 13, 11, 12.5),
  dayBar(AAPL, '2024-01-05', 12.5, 13, 11, 13),
];

describe('sizing helpers', () => {
  it('rounds toward zero to whole units of the given size', () => {
    expect(roundToUnits(Quantity.of('123.9')).toFixed()).toBe('123');
    expect(roundToUnits(Quantity.of('-7.5')).toFixed()).toBe('-7');
    expect(roundToUnits(Quantity.of('1234'), Quantity.of(100)).toFixed()).toBe('1200');
    expect(() => roundToUnits(Quantity.of(5), Quantity.of(0))).toThrow(InvalidInputError);
  });

  it('sizes targetPercent on equity at the last close and buyValue on an amount, in whole shares', async () => {
    const seen: string[] = [];
    const strategy = scripted([AAPL], {
      // Equity 10,000 at a close of 10: 25 % is 250 shares.
      0: (ctx) => ctx.targetPercent(0.25),
      // Filled at the open of 10; close 12: equity 7,500 + 250 × 12 = 10,500. 1,000 at 12 is 83.33 → 83.
      1: (ctx) => {
        seen.push(`equity ${ctx.equity().toFixed()}`, `unrealized ${ctx.positions.unrealizedPnl().toFixed()}`);
        return ctx.buyValue(1000);
      },
      // Holding 333 at an average cost of (250 × 10 + 83 × 12) / 333; 10 % of equity at 12.5 → target.
      2: (ctx) => {
        seen.push(`equity ${ctx.equity().toFixed()}`);
        return ctx.targetPercent(0.1);
      },
    });

    const run = await backtest([BARS], [strategy], { cash: 10_000 });

    expect(run.record.fills.map((fill) => [fill.side, fill.quantity.toFixed(), fill.price.toFixed()])).toEqual([
      ['Buy', '250', '10'],
      ['Buy', '83', '12'],
      // Equity: 10,000 − 2,500 − 996 + 333 × 12.5 = 10,666.5; 10 % is 1,066.65 → 85 shares at 12.5: sell 248.
      ['Sell', '248', '12.5'],
    ]);
    expect(seen).toEqual(['equity 10500', 'unrealized 500', 'equity 10666.5']);
  });

  it('fails the strategy with a clear message when an amount buys no whole share', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buyValue(5) });
    const run = await backtest([BARS], [strategy], { cash: 10_000 });

    expect(run.record.failures?.[0]?.failure.error).toMatch(
      /buyValue\(5\): AAPL\.US trades in units of 1 costing 10; the amount buys none/,
    );
  });
});
