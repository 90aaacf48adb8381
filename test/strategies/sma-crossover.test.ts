import { describe, expect, it } from 'vitest';
import { prepareStrategy } from '../../src/strategy/index.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { runOnCandles } from '../support/execution/harness.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';

// fast=2, slow=4. From bar 3 (first full slow average) the fast average is below the slow one; it crosses
// above on bar 6 (fast 6.5 > slow 6) and back below on bar 10 (fast 6.5 < slow 7.5).
const CLOSES = [9, 8, 7, 6, 5, 6, 7, 8, 9, 8, 5, 4, 3];

describe('sma-crossover strategy', () => {
  it('buys `quantity` on the upward cross and closes the whole position on the downward cross', async () => {
    const strategy = prepareStrategy(smaCrossover, { params: { fast: 2, slow: 4, quantity: 100 } });

    const run = await runOnCandles([strategy], dailyCandles('SPX.US', CLOSES));

    expect(run.orders).toEqual(['Buy 100 SPX.US @bar 6', 'Sell 100 SPX.US @bar 10']);
    expect(run.summary.positions.find((position) => position.symbol === 'SPX.US')?.quantity.toFixed()).toBe('0');
    expect(run.summary.fills).toBe(2);
  });

  it('sends no order on a downward cross while flat (close resolves to nothing)', async () => {
    const strategy = prepareStrategy(smaCrossover, { params: { fast: 2, slow: 4, quantity: 100 } });

    const run = await runOnCandles([strategy], dailyCandles('SPX.US', [1, 2, 3, 4, 5, 4, 3, 2, 1]));

    expect(run.orders).toEqual([]);
    expect(run.events.filter((event) => event.type === 'intent-skipped')).toHaveLength(1);
  });

  it('refuses fast >= slow with a message naming the file and the param', () => {
    expect(() => prepareStrategy(smaCrossover, { params: { fast: 30, slow: 10 } }, 'strategies/sma-crossover.ts')).toThrow(
      /strategies\/sma-crossover\.ts: param fast: fast must be shorter than slow/,
    );
  });
});
