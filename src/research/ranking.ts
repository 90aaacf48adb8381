// Orders finished trials: those meeting every constraint and --min-trades, with a value for the objective,
// best first; ties go to the lower trial index, so the ranking never depends on finishing order.
import { type Constraint, type Objective, satisfies } from './objective.js';
import type { TrialOutcome } from './trial.js';

export interface RankingRules {
  readonly objective: Objective;
  readonly constraints: readonly Constraint[];
  readonly minTrades: number;
}

export interface Ranking {
  readonly ranked: readonly TrialOutcome[];
  /** Trials left out, by reason ("maxDrawdown<0.2", "min trades", "no sharpe"). */
  readonly excluded: Readonly<Record<string, number>>;
}

export function rankTrials(outcomes: readonly TrialOutcome[], rules: RankingRules): Ranking {
  const excluded: Record<string, number> = {};
  const exclude = (reason: string): void => {
    excluded[reason] = (excluded[reason] ?? 0) + 1;
  };
  const ranked = outcomes.filter((outcome) => {
    if (outcome.metrics.closedTrades < rules.minTrades) return (exclude(`fewer than ${rules.minTrades} trades`), false);
    const failed = rules.constraints.find((constraint) => !satisfies(outcome.metrics, constraint));
    if (failed !== undefined) return (exclude(failed.text), false);
    if (objectiveValue(outcome, rules.objective) === null) return (exclude(`no ${rules.objective.metric}`), false);
    return true;
  });
  const sign = rules.objective.direction === 'max' ? -1 : 1;
  ranked.sort((a, b) => sign * (objectiveValue(a, rules.objective)! - objectiveValue(b, rules.objective)!) || a.index - b.index);
  return { ranked, excluded };
}

export function objectiveValue(outcome: TrialOutcome, objective: Objective): number | null {
  const value = outcome.metrics[objective.metric];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
