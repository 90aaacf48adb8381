// One trial of a research run: the backtest of one parameter combination over preloaded data, reduced to
// its metrics and return statistics (the same engine, costs and risk as `trader backtest`).
import { BarCloseTimes } from '../backtest/bar-close.js';
import type { BacktestData } from '../backtest/data.js';
import { runBacktest, type BacktestRun, type BacktestVenueSettings } from '../backtest/engine.js';
import { barLocator } from '../backtest/metrics/bar-index.js';
import { computeMetrics } from '../backtest/metrics/compute.js';
import { barReturns, perBarRate } from '../backtest/metrics/returns.js';
import { pairTrades } from '../backtest/metrics/trades.js';
import { localTime } from '../backtest/report/local-time.js';
import { runTimeZone } from '../backtest/run-zone.js';
import { corporateActionFromJson, type CorporateAction, type CorporateActionJson } from '../domain/corporate-action.js';
import type { RiskLimits } from '../risk/config.js';
import type { StrategyDefinition } from '../strategy/define.js';
import type { ParamDefaults, ParamValue } from '../strategy/params.js';
import { prepareStrategy, type PreparedStrategy } from '../strategy/prepare.js';
import { failureWhere } from '../strategy/failure.js';
import { type TrialMetrics, withCalmar } from './objective.js';
import type { ParamCombo } from './param-space.js';
import { returnStats, type ReturnStats } from './return-stats.js';
import { sliceData } from '../backtest/data.js';
import { listOf } from '../domain/list-of.js';

/** Everything but the parameters, the same for every trial of a run (plain data: it crosses to workers). */
export interface TrialSettings {
  /** Absolute path of the strategy file. */
  readonly strategyFile: string;
  readonly symbols: readonly string[];
  readonly period?: string;
  readonly cash: string;
  readonly venue: BacktestVenueSettings;
  /** Dividends and splits applied on their ex-dates (unadjusted data); none when absent. */
  readonly actions?: readonly CorporateActionJson[];
  /** The risk config file (`--risk`), loaded where the trial runs. */
  readonly riskFile?: string;
  readonly riskFreeRate: number;
  /** Blocks the returns are cut into for CSCV (even). */
  readonly blocks: number;
  /** Fixed --param overrides (not searched), as text. */
  readonly fixed: ParamCombo;
}

export interface TrialTask {
  /** Position in the run's trial list; results are keyed and tie-broken by it. */
  readonly index: number;
  readonly combo: ParamCombo;
  /** Only the bars starting in [from, to) (epoch ms): a walk-forward window. */
  readonly range?: TimeRange;
}

export interface TimeRange {
  readonly from: number;
  readonly to: number;
}

export interface TrialOutcome {
  readonly index: number;
  /** The strategy's params after validation (typed). */
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly metrics: TrialMetrics;
  readonly stats: ReturnStats;
}

export function prepareTrial(definition: StrategyDefinition<ParamDefaults>, settings: TrialSettings, combo: ParamCombo): PreparedStrategy {
  return prepareStrategy(
    definition,
    {
      symbols: settings.symbols,
      ...(settings.period === undefined ? {} : { period: settings.period }),
      params: { ...settings.fixed, ...combo },
    },
    settings.strategyFile,
  );
}

/** What a trial runs on, loaded once per process or worker. */
export interface TrialContext {
  readonly definition: StrategyDefinition<ParamDefaults>;
  readonly data: BacktestData;
  readonly risk: RiskLimits | undefined;
}

export async function runTrialBacktest(
  strategy: PreparedStrategy,
  context: Pick<TrialContext, 'data' | 'risk'> & { readonly history?: BacktestData },
  settings: TrialSettings,
  keepIntents = false,
): Promise<BacktestRun> {
  return runBacktest({
    strategies: [strategy],
    data: context.data,
    ...(context.history === undefined ? {} : { history: context.history }),
    cash: settings.cash,
    venue: settings.venue,
    ...(settings.actions === undefined || settings.actions.length === 0 ? {} : { actions: actionsOf(settings) }),
    keepIntents,
    ...(context.risk === undefined ? {} : { risk: context.risk }),
    barCloses: barClosesOf(context.data),
  });
}

// Every trial walks the same data: each bar's close instant is worked out once per data set.
const barCloses = new WeakMap<BacktestData, BarCloseTimes>();

function barClosesOf(data: BacktestData): BarCloseTimes {
  let closes = barCloses.get(data);
  if (closes === undefined) barCloses.set(data, (closes = new BarCloseTimes(data.period, true)));
  return closes;
}

// Parsed once per settings object (a worker runs many trials with the same settings).
const parsedActions = new WeakMap<TrialSettings, CorporateAction[]>();

function actionsOf(settings: TrialSettings): CorporateAction[] {
  let actions = parsedActions.get(settings);
  if (actions === undefined) parsedActions.set(settings, (actions = (settings.actions ?? []).map(corporateActionFromJson)));
  return actions;
}

export function trialOutcome(index: number, strategy: PreparedStrategy, run: BacktestRun, settings: TrialSettings): TrialOutcome {
  const { record } = run;
  const ledger = pairTrades(record.fills, record.carry);
  const locate = barLocator(record.bars);
  const barsHeld = listOf(ledger.closed, (trade) =>
    Math.max(0, locate(trade.symbol, trade.exitTime) - locate(trade.symbol, trade.entryTime)),
  );
  const zone = runTimeZone(record);
  const returns = barReturns(record.equity.equity, record.initialCash.toNumber());
  const metrics = computeMetrics(
    { record, ledger, barsHeld, formatTime: localTime(zone).iso, returns },
    { riskFreeRate: settings.riskFreeRate },
  );
  const failed = record.failures?.[0]?.failure;
  const failure = failed === undefined ? null : failureWhere(failed);
  // The overfitting statistics judge the Sharpe ratio the ranking shows: of the returns over the risk-free rate.
  const riskFree = perBarRate(settings.riskFreeRate, metrics.periodsPerYear);
  const excess = riskFree === 0 ? returns : returns.map((value) => value - riskFree);
  return { index, params: strategy.params, metrics: withCalmar(metrics, failure), stats: returnStats(excess, settings.blocks) };
}

export async function runTrial(context: TrialContext, settings: TrialSettings, task: TrialTask): Promise<TrialOutcome> {
  const strategy = prepareTrial(context.definition, settings, task.combo);
  const window = task.range === undefined ? { data: context.data } : windowOf(context.data, task.range);
  return trialOutcome(task.index, strategy, await runTrialBacktest(strategy, { ...window, risk: context.risk }, settings), settings);
}

/** A window of the data, and the bars before it as the strategies' warm-up history. */
export interface DataWindow {
  readonly data: BacktestData;
  readonly history: BacktestData;
}

// The windows of a walk-forward repeat for every trial: each is cut once per data set.
const windows = new WeakMap<BacktestData, Map<string, DataWindow>>();

export function windowOf(data: BacktestData, range: TimeRange): DataWindow {
  let cache = windows.get(data);
  if (cache === undefined) windows.set(data, (cache = new Map()));
  const key = `${range.from}:${range.to}`;
  let window = cache.get(key);
  if (window === undefined)
    cache.set(
      key,
      (window = { data: sliceData(data, range.from, range.to), history: sliceData(data, Number.NEGATIVE_INFINITY, range.from) }),
    );
  return window;
}
