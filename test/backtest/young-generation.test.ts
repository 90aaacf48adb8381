// A finished run must not outlive it in the young generation: each research trial is one run, and a run the
// young-generation collector keeps is copied and promoted, then waits for a full collection, which made
// collection a large share of every trial. The collector is driven here directly (V8's gc, exposed at run
// time) and the old generation weighed across two young collections right after a run. Getters written in
// an object literal (the runtime's busy, ctx.warmingUp) kept every run alive so; bench/README.md has figures.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { backtestData } from '../../src/backtest/data.js';
import { runBacktest } from '../../src/backtest/engine.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { AAPL, wavingDays } from '../support/run/candles.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (options: { type: 'minor' | 'major' }) => void;
const oldSpace = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;

const data = backtestData([{ symbol: AAPL, period: 'day', source: 'generated', candles: wavingDays(2000) }]);
const strategy = prepareStrategy(smaCrossover as never, { symbols: [AAPL], params: { fast: 3, slow: 8, quantity: 10 } });

// In its own function, so nothing of the run is left on this test's frames.
async function oneRun(): Promise<number> {
  return (await runBacktest({ strategies: [strategy], data })).record.fills.length;
}

describe('a finished backtest', () => {
  it('leaves nothing the young-generation collector keeps', async () => {
    expect(await oneRun()).toBeGreaterThan(10);
    const promoted: number[] = [];
    // The least of ten: files run before this one in the same process (isolate: false) may leave timers that allocate.
    for (let run = 0; run < 10; run += 1) {
      await oneRun();
      collect({ type: 'major' });
      const before = oldSpace();
      // Whatever survives two young collections is promoted to the old generation.
      collect({ type: 'minor' });
      collect({ type: 'minor' });
      promoted.push(oldSpace() - before);
    }
    // A run kept alive promotes its whole graph (over 100 kB here); without that, about 15 kB.
    expect(Math.min(...promoted)).toBeLessThan(40_000);
  });
});
