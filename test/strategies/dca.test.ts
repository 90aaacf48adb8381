import { describe, expect, it } from 'vitest';
import { prepareStrategy } from '../../src/strategy/index.js';
import dca from '../../strategies/dca.js';
import { runOnCandles } from '../support/execution/harness.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';

describe('dca strategy', () => {
  it('buys whole shares worth about `amount` on the first bar and then every `everyDays` days of bar time', async () => {
    const strategy = prepareStrategy(dca, { params: { amount: 1000, everyDays: 2 } });

    // Daily bars: day 0 (1000/100 = 10 shares), day 2 (1000/300 = 3), day 4 (1000/2000 < 1 share: skipped).
    const run = await runOnCandles([strategy], dailyCandles('SPX.US', [100, 200, 300, 400, 2000, 100]));

    expect(run.orders).toEqual(['Buy 10 SPX.US @bar 0', 'Buy 3 SPX.US @bar 2']);
    expect(run.summary.positions[0]?.quantity.toFixed()).toBe('13');
  });

  it('keeps one schedule per symbol', async () => {
    const strategy = prepareStrategy(dca, { symbols: ['A.US', 'B.US'], params: { amount: 100, everyDays: 30 } });
    const candles = [...dailyCandles('A.US', [10]), ...dailyCandles('B.US', [20])];

    const run = await runOnCandles([strategy], candles);

    expect(run.orders).toEqual(['Buy 10 A.US @bar 0', 'Buy 5 B.US @bar 1']);
  });
});
