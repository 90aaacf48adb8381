// The `settings` of the optimize JSON: the run's flags and inputs as given, the way backtest's JSON echoes its own.
import type { OptimizeSettings } from '../../research/report-rows.js';
import type { BacktestInputs } from '../backtest/inputs.js';
import type { ResearchArgs, SearchChoice } from './setup.js';

export interface SettingsSources {
  readonly args: ResearchArgs;
  readonly inputs: BacktestInputs;
  readonly choice: SearchChoice;
  readonly strategyHash: string;
  readonly dataHash: string;
}

export function optimizeSettings({ args, inputs, choice, strategyHash, dataHash }: SettingsSources): OptimizeSettings {
  const { objective, constraints } = choice;
  return {
    strategyFile: args.strategy,
    strategyHash,
    defaults: inputs.strategy.params,
    search: choice.search,
    seed: choice.seed,
    trials: choice.trials ?? null,
    // The specs parsed already (a bad one was refused): name, then the text after the first '='.
    params: Object.fromEntries(
      (args.param ?? []).map(String).map((spec) => [spec.slice(0, spec.indexOf('=')).trim(), spec.slice(spec.indexOf('=') + 1).trim()]),
    ),
    objective: `${objective.metric}:${objective.direction}`,
    constraints: constraints.map((constraint) => constraint.text),
    minTrades: choice.minTrades,
    blocks: choice.blocks,
    data: inputs.dataPath,
    dataHash,
    from: inputs.range?.text.from ?? null,
    to: inputs.range?.text.to ?? null,
    symbols: inputs.strategy.symbols,
    period: inputs.strategy.period,
    cash: inputs.cash.toFixed(),
    ...inputs.venue.echo,
    adjust: inputs.adjust,
    corporateActions: inputs.actions.length,
    risk: args.risk ?? null,
    riskFreeRate: inputs.riskFreeRate,
  };
}
