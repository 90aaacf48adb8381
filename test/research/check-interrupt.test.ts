// `trader check` stopped by its signal (Ctrl-C): the checks stop before their next run, the paper replay at
// once, and the result is the checks finished by then.
import { map, tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { backtestData } from '../../src/backtest/data.js';
import { runChecks, type CheckInput } from '../../src/research/check/checks.js';
import { paperDecisions } from '../../src/research/check/paper-replay.js';
import { defineStrategy } from '../../src/strategy/define.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import { wavingDays } from '../support/run/candles.js';
import honest from './strategies/honest.js';

const DATA = backtestData([{ symbol: 'AAPL.US' as never, period: 'day', source: 'generated', candles: wavingDays(160) }]);

function input(stop: AbortController, strategy = prepareStrategy(honest)): CheckInput {
  return {
    strategy,
    data: DATA,
    risk: undefined,
    settings: { strategyFile: 'test', symbols: ['AAPL.US'], cash: '1000000', venue: {}, riskFreeRate: 0, blocks: 2, fixed: {} },
    cuts: 5,
    seed: 3,
    parityBars: 40,
    paperDecisions: (replayed, data) => paperDecisions(replayed, data, { cash: '1000000', signal: stop.signal }),
    signal: stop.signal,
  };
}

describe('trader check, interrupted', () => {
  it('stops before its next run and gives the checks finished by then', async () => {
    const stop = new AbortController();
    // The full run, then determinism's second run: the abort comes before look-ahead's first cut.
    const progress = { start: () => undefined, update: (done: number) => done === 2 && stop.abort() };

    const results = await runChecks({ ...input(stop), progress }, ['look-ahead', 'determinism']);

    expect(results.map((result) => [result.check, result.passed])).toEqual([['determinism', true]]);
  });

  it('cuts the paper replay short, which is an interrupted check rather than a failed one', async () => {
    const stop = new AbortController();
    let runs = 0;
    let paperBars = 0;
    // The full run, parity's backtest, then the paper run: stopped at its fifth bar.
    const strategy = prepareStrategy(
      defineStrategy({
        name: 'stops-the-paper-run',
        params: {},
        symbols: ['AAPL.US'],
        run: (ctx) => {
          const run = (runs += 1);
          return ctx.candles().pipe(
            tap(() => run === 3 && (paperBars += 1) === 5 && stop.abort()),
            map(() => ctx.buy(10)),
          );
        },
      }),
    );

    const results = await runChecks(input(stop, strategy), ['parity']);

    expect([runs, paperBars]).toEqual([3, 5]);
    expect(results).toEqual([]);
  }, 60_000);
});
