// Orders finished trials: those meeting every constraint and --min-trades, with a value for the objective,
// best first; ties go to the lower trial index, so the ranking never depends on finishing order.
import { type Constraint, type Objective, satisfiesValue } from './objective.js';
import type { OutcomeTable } from './outcome-table.js';
import type { TrialOutcome } from './trial.js';

export interface RankingRules {
  readonly objective: Objective;
  readonly constraints: readonly Constraint[];
  readonly minTrades: number;
}

export interface Ranking {
  /** Rows of the outcome table, best first. */
  readonly rows: Int32Array;
  /** Trials left out, by reason ("strategy failed", "maxDrawdown<0.2", "min trades", "no sharpe"). */
  readonly excluded: Readonly<Record<string, number>>;
}

/** The reason a trial whose strategy threw is left out. */
export const STRATEGY_FAILED = 'strategy failed';

export function rankTrials(outcomes: OutcomeTable, rules: RankingRules): Ranking {
  const excluded: Record<string, number> = {};
  const exclude = (reason: string): void => {
    excluded[reason] = (excluded[reason] ?? 0) + 1;
  };
  const values = new Float64Array(outcomes.length);
  const kept: number[] = [];
  for (let row = 0; row < outcomes.length; row += 1) {
    const reason = exclusionReason(outcomes, row, rules);
    if (reason !== null) {
      exclude(reason);
      continue;
    }
    values[row] = finite(outcomes.metric(row, rules.objective.metric))!;
    kept.push(row);
  }
  const sign = rules.objective.direction === 'max' ? -1 : 1;
  const rows = Int32Array.from(kept).sort((a, b) => sign * (values[a]! - values[b]!) || outcomes.indexAt(a) - outcomes.indexAt(b));
  return { rows, excluded };
}

/**
 * Why the trial of `row` is left out of the ranking ("strategy failed", "fewer than 10 trades", the first
 * constraint it fails as written, "no sharpe"), or null when it is ranked.
 */
export function exclusionReason(outcomes: OutcomeTable, row: number, rules: RankingRules): string | null {
  // Its figures cover only the bars before the strategy threw.
  if (outcomes.failure(row) !== null) return STRATEGY_FAILED;
  if ((outcomes.metric(row, 'closedTrades') ?? 0) < rules.minTrades) return `fewer than ${rules.minTrades} trades`;
  const failed = rules.constraints.find((constraint) => !satisfiesValue(outcomes.metric(row, constraint.metric), constraint));
  if (failed !== undefined) return failed.text;
  return finite(outcomes.metric(row, rules.objective.metric)) === null ? `no ${rules.objective.metric}` : null;
}

/** The ranked trials from the best, at most `top` of them. */
export function rankedOutcomes(outcomes: OutcomeTable, ranking: Ranking, top = Number.POSITIVE_INFINITY): TrialOutcome[] {
  return Array.from(ranking.rows.subarray(0, Math.min(top, ranking.rows.length)), (row) => outcomes.at(row));
}

export function objectiveValue(outcome: TrialOutcome, objective: Objective): number | null {
  return finite(outcome.metrics[objective.metric]);
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
