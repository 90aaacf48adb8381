// Optimization results as rows: the terminal table of the top trials, CSV and the JSON document.
import type { OptimizeResult } from './optimize.js';
import { type RankingRules, rankedOutcomes } from './ranking.js';
import type { TrialOutcome } from './trial.js';

/** The metrics shown in the table, beside any other the ranking used (every metric goes to CSV and JSON). */
const TABLE_METRICS = [
  'sharpe',
  'sortino',
  'cagr',
  'totalReturn',
  'maxDrawdown',
  'calmar',
  'profitFactor',
  'winRate',
  'closedTrades',
] as const;

/** The params that take more than one value over the finished trials. */
export function searchedParams(result: OptimizeResult): string[] {
  const { outcomes } = result;
  return outcomes.paramNames().filter((name) => {
    const first = outcomes.param(0, name);
    for (let row = 1; row < outcomes.length; row += 1) if (outcomes.param(row, name) !== first) return true;
    return false;
  });
}

/**
 * The params the table names: those the run's planned trials vary. A run stopped early may have finished only
 * trials that share one value of a searched param (the grid varies the last param fastest), which still tells
 * the ranked trials apart from the rest of the search.
 */
function plannedParams(result: OptimizeResult): string[] {
  const { trials } = result.plan;
  return result.outcomes.paramNames().filter((name) => trials.some((trial) => trial.combo[name] !== trials[0]!.combo[name]));
}

export function formatTable(result: OptimizeResult, rules: RankingRules, top: number): string {
  const names = plannedParams(result);
  // The objective and the constrained metrics come first when the usual columns leave them out.
  const used = [rules.objective.metric, ...rules.constraints.map((constraint) => constraint.metric)];
  const metrics = [...new Set([...used.filter((metric) => !(TABLE_METRICS as readonly string[]).includes(metric)), ...TABLE_METRICS])];
  const header = ['#', ...names, ...metrics.map((metric) => (metric === rules.objective.metric ? `*${metric}` : metric))];
  const rows = rankedOutcomes(result.outcomes, result.ranking, top).map((outcome, rank) => [
    String(rank + 1),
    ...names.map((name) => String(outcome.params[name])),
    ...metrics.map((metric) => formatNumber(outcome.metrics[metric as keyof TrialOutcome['metrics']] as number | null)),
  ]);
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]): string => cells.map((cell, column) => cell.padStart(widths[column]!)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 1000 ? value.toFixed(0) : value.toFixed(4);
}

/** One row per finished trial, best first then the excluded ones by index; every param and metric a column. */
export function* csvLines(result: OptimizeResult): Generator<string> {
  const { outcomes, ranking } = result;
  const rankOf = new Int32Array(outcomes.length);
  ranking.rows.forEach((row, rank) => {
    rankOf[row] = rank + 1;
  });
  const names = outcomes.paramNames();
  const metrics = outcomes.length === 0 ? [] : Object.keys(outcomes.at(0).metrics);
  yield `${['rank', 'trial', ...names, ...metrics].map(csvCell).join(',')}\n`;
  const line = (row: number): string => {
    const outcome = outcomes.at(row);
    return `${[
      rankOf[row] === 0 ? '' : String(rankOf[row]),
      String(outcome.index),
      ...names.map((name) => csvCell(outcome.params[name])),
      ...metrics.map((metric) => csvCell((outcome.metrics as Record<string, unknown>)[metric])),
    ].join(',')}\n`;
  };
  for (const row of ranking.rows) yield line(row);
  for (let row = 0; row < outcomes.length; row += 1) if (rankOf[row] === 0) yield line(row);
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : formulaSafe(String(value));
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or CR before one) as a formula: such text (a
 * param value, a failure message) is kept as text by a leading apostrophe, the usual guard. A number, or text
 * of a plain negative number (-0.25, -1e-7), is left as it is, so it still reads as a number.
 */
function formulaSafe(text: string): string {
  if (!/^[=+\-@\t\r]/.test(text) || /^-(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return text;
  return `'${text}`;
}

/** What the run was given, as the backtest JSON's `settings` echo it: enough to run it again. */
export interface OptimizeSettings {
  readonly strategyFile: string;
  /** `sha256:…` of the strategy as compiled (with its local imports), as a --resume file records it. */
  readonly strategyHash: string;
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly search: 'grid' | 'random';
  readonly seed: number;
  /** --trials; null for a grid, which runs every combination. */
  readonly trials: number | null;
  /** Each --param as given: name → `start:end:step`, `a,b,c` or a value. */
  readonly params: Readonly<Record<string, string>>;
  readonly objective: string;
  readonly constraints: readonly string[];
  readonly minTrades: number;
  readonly blocks: number;
  readonly data: string;
  readonly dataHash: string;
  readonly from: string | null;
  readonly to: string | null;
  readonly symbols: readonly string[];
  readonly period: string;
  readonly cash: string;
  readonly adjust: string;
  readonly corporateActions: number;
  readonly risk: string | null;
  readonly riskFreeRate: number;
  /** The costs and fill rules (fill, intrabar, slippageBps, commission, fees, short …), as backtest echoes them. */
  readonly [venue: string]: unknown;
}

export interface OptimizeDocument {
  readonly version: 1;
  readonly strategy: string;
  readonly settings: OptimizeSettings;
  readonly objective: RankingRules['objective'];
  readonly constraints: readonly string[];
  readonly minTrades: number;
  readonly spaceSize: number;
  readonly trials: number;
  readonly finished: number;
  readonly skipped: number;
  readonly excluded: Readonly<Record<string, number>>;
  readonly interrupted: boolean;
  readonly pbo: number | null;
  readonly deflatedSharpe: number | null;
  readonly ranked: readonly {
    readonly rank: number;
    readonly trial: number;
    readonly params: TrialOutcome['params'];
    readonly metrics: TrialOutcome['metrics'];
  }[];
  /** The first `top` trials (in trial order) whose strategy threw: never ranked. */
  readonly failed: readonly {
    readonly trial: number;
    readonly params: TrialOutcome['params'];
    readonly failure: string;
  }[];
}

export function optimizeDocument(
  strategy: string,
  settings: OptimizeSettings,
  result: OptimizeResult,
  rules: RankingRules,
  top: number,
): OptimizeDocument {
  return {
    version: 1,
    strategy,
    settings,
    objective: rules.objective,
    constraints: rules.constraints.map((constraint) => constraint.text),
    minTrades: rules.minTrades,
    spaceSize: result.plan.spaceSize,
    trials: result.plan.trials.length,
    finished: result.outcomes.length,
    skipped: result.plan.skipped.length,
    excluded: result.ranking.excluded,
    interrupted: result.interrupted,
    pbo: result.overfitting.pbo?.probability ?? null,
    deflatedSharpe: result.overfitting.deflatedSharpe?.probability ?? null,
    ranked: rankedOutcomes(result.outcomes, result.ranking, top).map((outcome, rank) => ({
      rank: rank + 1,
      trial: outcome.index,
      params: outcome.params,
      metrics: outcome.metrics,
    })),
    failed: failedOutcomes(result.outcomes, top),
  };
}

function failedOutcomes(outcomes: OptimizeResult['outcomes'], top: number): OptimizeDocument['failed'] {
  const failed: { trial: number; params: TrialOutcome['params']; failure: string }[] = [];
  for (let row = 0; row < outcomes.length && failed.length < top; row += 1) {
    const failure = outcomes.failure(row);
    if (failure !== null) failed.push({ trial: outcomes.indexAt(row), params: outcomes.at(row).params, failure });
  }
  return failed;
}
