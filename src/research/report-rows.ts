// Optimization results as rows: the terminal table of the top trials, CSV and the JSON document.
import type { OptimizeResult } from './optimize.js';
import type { RankingRules } from './ranking.js';
import type { TrialOutcome } from './trial.js';

/** The metrics shown in the table (every metric goes to CSV and JSON). */
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

export function paramNames(result: OptimizeResult): string[] {
  const first = result.outcomes[0];
  return first === undefined ? [] : Object.keys(first.params);
}

export function formatTable(result: OptimizeResult, rules: RankingRules, top: number): string {
  const names = paramNames(result).filter((name) => new Set(result.outcomes.map((outcome) => String(outcome.params[name]))).size > 1);
  const header = ['#', ...names, ...TABLE_METRICS.map((metric) => (metric === rules.objective.metric ? `*${metric}` : metric))];
  const rows = result.ranking.ranked
    .slice(0, top)
    .map((outcome, rank) => [
      String(rank + 1),
      ...names.map((name) => String(outcome.params[name])),
      ...TABLE_METRICS.map((metric) => formatNumber(outcome.metrics[metric])),
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
export function formatCsv(result: OptimizeResult): string {
  const ranked = result.ranking.ranked;
  const rankOf = new Map(ranked.map((outcome, rank) => [outcome.index, rank + 1]));
  const rest = result.outcomes.filter((outcome) => !rankOf.has(outcome.index));
  const all = [...ranked, ...rest];
  const names = paramNames(result);
  const metrics = all[0] === undefined ? [] : Object.keys(all[0].metrics);
  const header = ['rank', 'trial', ...names, ...metrics];
  const rows = all.map((outcome) => [
    String(rankOf.get(outcome.index) ?? ''),
    String(outcome.index),
    ...names.map((name) => csvCell(outcome.params[name])),
    ...metrics.map((metric) => csvCell((outcome.metrics as Record<string, unknown>)[metric])),
  ]);
  return `${[header.join(','), ...rows.map((row) => row.join(','))].join('\n')}\n`;
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export interface OptimizeDocument {
  readonly version: 1;
  readonly strategy: string;
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
}

export function optimizeDocument(strategy: string, result: OptimizeResult, rules: RankingRules, top: number): OptimizeDocument {
  return {
    version: 1,
    strategy,
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
    ranked: result.ranking.ranked.slice(0, top).map((outcome, rank) => ({
      rank: rank + 1,
      trial: outcome.index,
      params: outcome.params,
      metrics: outcome.metrics,
    })),
  };
}
