// The terminal table of an optimization's top trials.
import { trialSettings } from '../support/research/trial-settings.js';
import { describe, expect, it } from 'vitest';
import { backtestData } from '../../src/backtest/data.js';
import { createInProcessExecutor } from '../../src/research/in-process.js';
import { parseObjective } from '../../src/research/objective.js';
import { optimize, planTrials } from '../../src/research/optimize.js';
import { parseParamSpace } from '../../src/research/param-space.js';
import { formatTable } from '../../src/research/report-rows.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { AAPL, wavingDays } from '../support/run/candles.js';

const DATA = backtestData([{ symbol: AAPL, period: 'day', source: 'generated', candles: wavingDays(300) }]);
const SETTINGS = trialSettings(8);
const RULES = { objective: parseObjective('sharpe'), constraints: [], minTrades: 0 };

describe('the table of the top trials', () => {
  it('names every searched param, also when the trials finished before a stop share one value of it', async () => {
    const plan = planTrials(smaCrossover as never, SETTINGS, {
      space: parseParamSpace(['fast=2:8:2', 'slow=10:30:10']),
      search: 'grid',
      seed: 1,
    });
    const stop = new AbortController();
    const executor = createInProcessExecutor({ definition: smaCrossover as never, data: DATA, risk: undefined }, SETTINGS);
    const result = await optimize({
      plan,
      rules: RULES,
      executor,
      signal: stop.signal,
      onOutcome: (_, done) => done === 2 && stop.abort(),
    });
    expect(result.interrupted).toBe(true);
    expect(new Set([...result.outcomes].map((outcome) => outcome.params['fast']))).toEqual(new Set([2]));
    const [header, first] = formatTable(result, RULES, 10).split('\n');
    expect(header!.trim().split(/\s+/).slice(0, 3)).toEqual(['#', 'fast', 'slow']);
    expect(first!.trim().split(/\s+/).slice(0, 2)).toEqual(['1', '2']);
  });
});
