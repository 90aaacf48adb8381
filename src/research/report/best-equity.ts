// The best trial rerun in this process for its equity curve (trials keep only statistics), as chart points.
import { localTime } from '../../backtest/report/local-time.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf } from '../../domain/symbol.js';
import type { ParamCombo } from '../param-space.js';
import { prepareTrial, runTrialBacktest, type TrialContext, type TrialSettings } from '../trial.js';

export async function trialEquity(
  context: TrialContext,
  settings: TrialSettings,
  combo: ParamCombo,
): Promise<{ time: number; value: number }[]> {
  const strategy = prepareTrial(context.definition, settings, combo);
  const run = await runTrialBacktest(strategy, context, settings);
  const local = localTime(timeZoneOf(marketOf(strategy.symbols[0]!)));
  const { times, equity } = run.record.equity;
  return Array.from({ length: times.length }, (_, index) => ({ time: local.chartSeconds(times[index]!), value: equity[index]! }));
}
