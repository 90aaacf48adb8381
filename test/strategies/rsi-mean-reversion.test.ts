import { describe, expect, it } from 'vitest';
import { prepareStrategy } from '../../src/strategy/index.js';
import rsiMeanReversion from '../../strategies/rsi-mean-reversion.js';
import { runOnCandles } from '../support/execution/harness.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';

// RSI(3) of these closes (trading-signals, Wilder smoothing), from bar 3:
// 100, 66.7, 33.3, 24.2, 46.2, 71.3, 78.7, 84.7, 46.0, 22.7, 18.1, 57.1.
const CLOSES = [10, 11, 12, 13, 12, 10, 9, 10, 12, 13, 14, 12, 9, 8, 11];

describe('rsi-mean-reversion strategy', () => {
  it('buys when the RSI crosses below oversold while flat and closes when it recovers above exit', async () => {
    const strategy = prepareStrategy(rsiMeanReversion, { params: { period: 3, oversold: 30, exit: 55, quantity: 100 } });

    const run = await runOnCandles([strategy], dailyCandles('SPX.US', CLOSES));

    // Bar 13 (RSI 18.1) is below oversold too, but the strategy already holds: no second buy.
    expect(run.orders).toEqual(['Buy 100 SPX.US @bar 6', 'Sell 100 SPX.US @bar 8', 'Buy 100 SPX.US @bar 12', 'Sell 100 SPX.US @bar 14']);
  });

  it('refuses an exit level below the oversold level', () => {
    expect(() => prepareStrategy(rsiMeanReversion, { params: { oversold: 60, exit: 50 } })).toThrow(
      /param oversold: oversold must be below exit/,
    );
  });
});
