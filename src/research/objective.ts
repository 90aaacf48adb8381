// What an optimization ranks by (`--objective sharpe[:max|:min]`) and what a trial must satisfy
// (`--constraint 'maxDrawdown<0.2'`, `--min-trades N`).
import type { Metrics } from '../backtest/result.js';
import { InvalidInputError } from '../domain/errors.js';

/**
 * Metrics a trial reports: the backtest's, plus calmar (cagr / maxDrawdown) and, when the strategy threw, the
 * failure in one line (its figures then cover only the bars before it, so the trial is never ranked).
 */
export type TrialMetrics = Metrics & { readonly calmar: number | null; readonly failure: string | null };

export const OBJECTIVE_NAMES = [
  'sharpe',
  'sortino',
  'cagr',
  'totalReturn',
  'calmar',
  'profitFactor',
  'winRate',
  'finalEquity',
  'averageTrade',
  'maxDrawdown',
  'exposure',
  'totalCommission',
] as const;
export type ObjectiveName = (typeof OBJECTIVE_NAMES)[number];

/** Which way is best unless the user says `:max` or `:min`. */
export const LOWER_IS_BETTER: ReadonlySet<ObjectiveName> = new Set(['maxDrawdown', 'exposure', 'totalCommission']);

export interface Objective {
  readonly metric: ObjectiveName;
  readonly direction: 'max' | 'min';
}

/** A metric's own name for `text` in any case (maxdrawdown → maxDrawdown), or undefined. */
function metricNamed(text: string, names: readonly string[]): string | undefined {
  const wanted = text.toLowerCase();
  return names.find((name) => name.toLowerCase() === wanted);
}

export function parseObjective(text: string): Objective {
  const [given = '', direction] = text.split(':').map((part) => part.trim());
  const name = metricNamed(given, OBJECTIVE_NAMES);
  if (name === undefined)
    throw new InvalidInputError(`--objective: unknown metric "${given}" (one of ${OBJECTIVE_NAMES.join(', ')})`, 'objective');
  if (direction !== undefined && direction !== 'max' && direction !== 'min')
    throw new InvalidInputError(`--objective ${text}: the direction is :max or :min`, 'objective');
  return { metric: name as ObjectiveName, direction: direction ?? (LOWER_IS_BETTER.has(name as ObjectiveName) ? 'min' : 'max') };
}

export const CONSTRAINT_OPERATORS = ['<=', '>=', '<', '>', '='] as const;

export interface Constraint {
  readonly metric: keyof TrialMetrics;
  readonly operator: (typeof CONSTRAINT_OPERATORS)[number];
  readonly value: number;
  readonly text: string;
}

const NUMERIC_METRICS: readonly string[] = [
  ...OBJECTIVE_NAMES,
  'fills',
  'closedTrades',
  'winningTrades',
  'losingTrades',
  'grossProfit',
  'grossLoss',
  'bestTrade',
  'worstTrade',
  'averageBarsHeld',
  'maxDrawdownBars',
];

export function parseConstraint(text: string): Constraint {
  // One decimal number: a looser pattern let '0.1.2' through as NaN, which fails every trial.
  const match = /^\s*([A-Za-z]+)\s*(<=|>=|<|>|=)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$/.exec(text);
  if (match === null) throw new InvalidInputError(`--constraint '${text}': expected METRIC<VALUE, e.g. 'maxDrawdown<0.2'`, 'constraint');
  const [, given = '', operator, value] = match;
  const metric = metricNamed(given, NUMERIC_METRICS);
  if (metric === undefined)
    throw new InvalidInputError(`--constraint '${text}': unknown metric "${given}" (one of ${NUMERIC_METRICS.join(', ')})`, 'constraint');
  return { metric: metric as keyof TrialMetrics, operator: operator as Constraint['operator'], value: Number(value), text: text.trim() };
}

/** A metric that is null (e.g. no losing trade for profitFactor) fails every constraint on it. */
export function satisfies(metrics: TrialMetrics, constraint: Constraint): boolean {
  return satisfiesValue(metrics[constraint.metric], constraint);
}

export function satisfiesValue(actual: unknown, constraint: Constraint): boolean {
  if (typeof actual !== 'number') return false;
  switch (constraint.operator) {
    case '<':
      return actual < constraint.value;
    case '<=':
      return actual <= constraint.value;
    case '>':
      return actual > constraint.value;
    case '>=':
      return actual >= constraint.value;
    case '=':
      return actual === constraint.value;
  }
}

export function withCalmar(metrics: Metrics, failure: string | null = null): TrialMetrics {
  return {
    ...metrics,
    calmar: metrics.cagr === null || metrics.maxDrawdown === 0 ? null : metrics.cagr / metrics.maxDrawdown,
    failure,
  };
}
