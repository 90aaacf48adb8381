// `trader check`'s four checks against an honest strategy and deliberately dishonest ones: one that peeks
// at the future, one that is nondeterministic, one whose declared warm-up is too short. Parity replays the
// bars on the real simulator over 127.0.0.1, as `trader run` does in paper mode.
import { describe, expect, it } from 'vitest';
import { backtestData } from '../../src/backtest/data.js';
import { runChecks, type CheckInput } from '../../src/research/check/checks.js';
import { paperDecisions } from '../../src/research/check/paper-replay.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import type { StrategyDefinition } from '../../src/strategy/define.js';
import type { ParamDefaults } from '../../src/strategy/params.js';
import { wavingDays } from '../support/run/candles.js';
import honest from './strategies/honest.js';
import peeking from './strategies/peeking.js';
import random from './strategies/random.js';
import shortWarmup from './strategies/short-warmup.js';

const DATA = backtestData([{ symbol: 'AAPL.US' as never, period: 'day', source: 'generated', candles: wavingDays(160) }]);

function input(definition: unknown): CheckInput {
  return {
    strategy: prepareStrategy(definition as StrategyDefinition<ParamDefaults>),
    data: DATA,
    risk: undefined,
    settings: { strategyFile: 'test', symbols: ['AAPL.US'], cash: '1000000', venue: {}, riskFreeRate: 0, blocks: 2, fixed: {} },
    cuts: 5,
    seed: 3,
    parityBars: 40,
    paperDecisions: (strategy, data) => paperDecisions(strategy, data, { cash: '1000000' }),
  };
}

describe('trader check', () => {
  it('passes an honest strategy on all four checks', async () => {
    const results = await runChecks(input(honest));
    expect(results.map((result) => [result.check, result.passed])).toEqual([
      ['look-ahead', true],
      ['warm-up', true],
      ['determinism', true],
      ['parity', true],
    ]);
    expect(results[3]!.detail).toMatch(/backtest [1-9]\d* decisions, paper replay [1-9]/);
  }, 120_000);

  it('fails a strategy that peeks at the future on look-ahead, naming the first differing decision', async () => {
    const [lookAhead] = await runChecks(input(peeking), ['look-ahead']);
    expect(lookAhead!.passed).toBe(false);
    expect(lookAhead!.difference!.time).toBeGreaterThanOrEqual(DATA.series[0]!.candles[0]!.time);
    expect(lookAhead!.difference!.actual).toMatch(/tomorrow is higher/);
  });

  it('fails a nondeterministic strategy on determinism', async () => {
    const [determinism] = await runChecks(input(random), ['determinism']);
    expect(determinism!.passed).toBe(false);
    expect(determinism!.difference).toBeDefined();
  });

  it('fails a strategy whose declared warm-up is shorter than its indicators need', async () => {
    const [warmUp] = await runChecks(input(shortWarmup), ['warm-up']);
    expect(warmUp!.passed).toBe(false);
    expect(warmUp!.detail).toMatch(/warm-up 2 bars/);
    const [honestWarmUp] = await runChecks(input(honest), ['warm-up']);
    expect(honestWarmUp!.passed).toBe(true);
  });
});
