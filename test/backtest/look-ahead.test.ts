// No look-ahead: cutting the history after bar t never changes a decision made at or before t, for every
// example strategy (their fills and positions feed back into later decisions, so this covers the venue too).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BarCloseTimes } from '../../src/backtest/bar-close.js';
import type { Candle } from '../../src/domain/candle.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import breakout from '../../strategies/breakout.js';
import dca from '../../strategies/dca.js';
import rsiMeanReversion from '../../strategies/rsi-mean-reversion.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { AAPL, backtest } from '../support/backtest/scripted.js';
import { randomWalk } from '../support/backtest/random-walk.js';

const BARS = 90;
const STRATEGIES = [
  prepareStrategy(smaCrossover, { symbols: [AAPL], params: { fast: 3, slow: 8, quantity: 10 } }),
  prepareStrategy(rsiMeanReversion, { symbols: [AAPL], params: { period: 5, oversold: 40, exit: 55, quantity: 10 } }),
  prepareStrategy(breakout, { symbols: [AAPL], params: { lookback: 5, atrPeriod: 3, stopAtr: 1, quantity: 10 } }),
  prepareStrategy(dca, { symbols: [AAPL], params: { amount: 1000, everyDays: 7 } }),
];

const walk = (seed: number): Candle[] => randomWalk(AAPL, seed, BARS);

describe('no look-ahead', () => {
  for (const strategy of STRATEGIES) {
    it(`${strategy.name}: truncating the history after bar t never changes a decision made at or before t`, async () => {
      const closes = new BarCloseTimes('day');
      let decided = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 1_000_000 }),
          fc.array(fc.integer({ min: 0, max: BARS - 2 }), { minLength: 1, maxLength: 4 }),
          async (seed, cuts) => {
            const bars = walk(seed);
            const full = await backtest([bars], [strategy]);
            decided += full.intents.length;
            for (const t of cuts) {
              const truncated = await backtest([bars.slice(0, t + 1)], [strategy]);
              const cutoff = closes.closeOf(bars[t]!);
              expect(truncated.intents).toEqual(full.intents.filter((intent) => intent.time <= cutoff));
            }
          },
        ),
        { numRuns: 12 },
      );
      // The property means something only if the strategy decided things.
      expect(decided).toBeGreaterThan(12);
    });
  }
});
