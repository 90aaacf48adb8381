import { trialSettings } from '../../support/research/trial-settings.js';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backtestData } from '../../../src/backtest/data.js';
import { failureLines } from '../../../src/cli/research/optimize-command.js';
import { createInProcessExecutor } from '../../../src/research/in-process.js';
import { parseObjective } from '../../../src/research/objective.js';
import { optimize, planTrials } from '../../../src/research/optimize.js';
import { AAPL, wavingDays } from '../../support/run/candles.js';
import failsWithoutParams from '../../research/strategies/fails-without-params.js';

describe("optimize's line about trials whose strategy threw", () => {
  it('gives the error without an empty "e.g." when the strategy has no params', async () => {
    const settings = trialSettings(8, {
      strategyFile: fileURLToPath(new URL('../../research/strategies/fails-without-params.ts', import.meta.url)),
      fixed: {},
    });
    const plan = planTrials(failsWithoutParams as never, settings, { space: [], search: 'grid', seed: 1 });
    const data = backtestData([{ symbol: AAPL, period: 'day', source: 'generated', candles: wavingDays(20) }]);
    const executor = createInProcessExecutor({ definition: failsWithoutParams as never, data, risk: undefined }, settings);
    const result = await optimize({ plan, rules: { objective: parseObjective('sharpe'), constraints: [], minTrades: 0 }, executor });
    const [line] = failureLines(result);
    expect(line).toMatch(/^the strategy failed in 1 trial \(not ranked\): no params, still fails \(at /);
  });
});
