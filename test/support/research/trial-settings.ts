// Trial settings of the research tests: a strategy file over AAPL.US, 100,000 of cash, no costs.
import { fileURLToPath } from 'node:url';
import type { TrialSettings } from '../../../src/research/trial.js';
import { AAPL } from '../run/candles.js';

const SMA_CROSSOVER = fileURLToPath(new URL('../../../strategies/sma-crossover.ts', import.meta.url));

/** `strategyFile`: sma-crossover by default; `fixed`: its quantity of 10 by default. */
export function trialSettings(
  blocks: number,
  options: { readonly strategyFile?: string; readonly fixed?: TrialSettings['fixed'] } = {},
): TrialSettings {
  return {
    strategyFile: options.strategyFile ?? SMA_CROSSOVER,
    symbols: [AAPL],
    cash: '100000',
    venue: {},
    riskFreeRate: 0,
    blocks,
    fixed: options.fixed ?? { quantity: '10' },
  };
}
