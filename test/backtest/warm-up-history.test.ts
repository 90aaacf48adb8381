// A run that starts inside its data (--from, walk-forward windows) warms its strategies up on the bars before
// its start, as a paper run warms up on the service's history: after the start it decides what the whole
// run decides, wherever it is cut.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backtestData } from '../../src/backtest/data.js';
import type { Candle } from '../../src/domain/candle.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { AAPL, backtest } from '../support/backtest/scripted.js';
import { randomWalk } from '../support/backtest/random-walk.js';

const BARS = 160;
// sma-crossover's averages remember only their windows: warmed up on its declared bars (slow + 1), a run cut
// anywhere is in the same state as the whole run there. (Smoothed indicators such as RSI or ATR remember
// all of their past; a finite warm-up brings them close, not equal, as in a live run.)
const STRATEGY = prepareStrategy(smaCrossover, { symbols: [AAPL], params: { fast: 3, slow: 8, quantity: 10 } });

const walk = (seed: number): Candle[] => randomWalk(AAPL, seed, BARS);

const series = (candles: readonly Candle[]) => ({ symbol: AAPL, period: 'day' as const, source: 'AAPL.csv', candles: [...candles] });

describe('warm-up history in a backtest', () => {
  it('a run cut at a bar where the whole run is flat, with the bars before as history, decides what the whole run decides', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 20, max: BARS - 20 }), async (seed, cut) => {
        const bars = walk(seed);
        const whole = await backtest([bars], [STRATEGY]);
        const start = bars[cut]!.time;
        // Flat at the cut: no shares held and no order decided on the bar before (it would fill at the cut).
        const held = whole.record.fills
          .filter((fill) => fill.time < start)
          .reduce((sum, fill) => sum + (fill.side === 'Buy' ? 1 : -1) * fill.quantity.toNumber(), 0);
        const decidedBefore = whole.intents.some((one) => one.time > bars[cut - 1]!.time && one.time < start);
        fc.pre(held === 0 && !decidedBefore);
        const cutRun = await backtest([bars.slice(cut)], [STRATEGY], { history: backtestData([series(bars.slice(0, cut))]) });
        const fromStart = (run: typeof whole) => run.intents.filter((one) => one.time >= start);
        expect(fromStart(cutRun)).toEqual(fromStart(whole));
        compared += fromStart(whole).length;
      }),
      { numRuns: 25 },
    );
    expect(compared).toBeGreaterThan(20);
  });

  it('starts cold without history: the first decision comes only after the warm-up bars of the run itself', async () => {
    const bars = walk(7);
    const cold = await backtest([bars.slice(80)], [STRATEGY]);
    const warm = await backtest([bars.slice(80)], [STRATEGY], { history: backtestData([series(bars.slice(0, 80))]) });
    const firstCold = cold.intents[0]?.time ?? Number.POSITIVE_INFINITY;
    const firstWarm = warm.intents[0]?.time ?? Number.POSITIVE_INFINITY;
    // sma 3/8 needs 8 bars before its first mean and one more for a cross.
    expect(firstCold).toBeGreaterThanOrEqual(bars[80 + 8]!.time);
    expect(firstWarm).toBeLessThan(firstCold);
  });
});
