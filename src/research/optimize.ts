// An optimization run: the trial list (grid or seeded random positions of the space, combinations the
// strategy's schema refuses skipped and counted), run on an executor, finished trials kept as they come,
// then ranked, with the overfitting statistics of the whole set.
import { InvalidInputError } from '../domain/errors.js';
import type { StrategyDefinition } from '../strategy/define.js';
import type { ParamDefaults } from '../strategy/params.js';
import type { TrialExecutor } from './executor.js';
import { comboAt, type ParamCombo, type ParamSpace, spaceSize, trialPositions } from './param-space.js';
import { type Ranking, type RankingRules, rankTrials } from './ranking.js';
import { blockBounds, type ReturnStats } from './return-stats.js';
import { type DeflatedSharpe, deflatedSharpe } from './stats/deflated-sharpe.js';
import { type Pbo, pboDefined, pboOfSplits, probabilityOfOverfitting } from './stats/pbo.js';
import { splitInput, splitParts } from './stats/pbo-splits.js';
import { prepareTrial, type TrialOutcome, type TrialSettings, type TrialTask } from './trial.js';

export interface SearchSpec {
  readonly space: ParamSpace;
  readonly search: 'grid' | 'random';
  /** Random search: how many combinations to draw (default 100). */
  readonly trials?: number;
  readonly seed: number;
}

export interface TrialPlan {
  readonly trials: readonly TrialTask[];
  /** Combinations the strategy refused (its paramsSchema), with the first reason for each. */
  readonly skipped: readonly { readonly combo: ParamCombo; readonly reason: string }[];
  /** Size of the whole grid. */
  readonly spaceSize: number;
}

/** Each trial's index is its grid position, so the same combination has the same index in every run. */
export function planTrials(definition: StrategyDefinition<ParamDefaults>, settings: TrialSettings, spec: SearchSpec): TrialPlan {
  const trials: TrialTask[] = [];
  const skipped: { combo: ParamCombo; reason: string }[] = [];
  for (const position of trialPositions(spec.space, spec.search, spec.trials, spec.seed)) {
    const combo = comboAt(spec.space, position);
    try {
      prepareTrial(definition, settings, combo);
      trials.push({ index: position, combo });
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      // An unknown parameter name is the user's mistake, not a combination to skip.
      if (/unknown param/.test(error.message)) throw error;
      skipped.push({ combo, reason: error.message.replace(/^.*?: /, '') });
    }
  }
  return { trials, skipped, spaceSize: spaceSize(spec.space) };
}

export interface Overfitting {
  readonly pbo: Pbo | null;
  readonly deflatedSharpe: DeflatedSharpe | null;
}

export interface OptimizeResult {
  readonly plan: TrialPlan;
  /** Every finished trial (resumed ones included), by index. */
  readonly outcomes: readonly TrialOutcome[];
  readonly ranking: Ranking;
  readonly overfitting: Overfitting;
  /** True when stopped before every trial finished. */
  readonly interrupted: boolean;
}

export interface OptimizeOptions {
  readonly plan: TrialPlan;
  readonly rules: RankingRules;
  readonly executor: TrialExecutor;
  /** Trials finished by an earlier run (--resume); not run again. */
  readonly finished?: readonly TrialOutcome[];
  /** Called once per newly finished trial (the trials file, the progress bar). */
  readonly onOutcome?: (outcome: TrialOutcome, done: number) => void;
  readonly signal?: AbortSignal;
}

export async function optimize(options: OptimizeOptions): Promise<OptimizeResult> {
  const wanted = new Set(options.plan.trials.map((trial) => trial.index));
  const byIndex = new Map<number, TrialOutcome>();
  for (const outcome of options.finished ?? []) if (wanted.has(outcome.index)) byIndex.set(outcome.index, outcome);
  const remaining = options.plan.trials.filter((trial) => !byIndex.has(trial.index));
  const signal = options.signal ?? new AbortController().signal;
  await options.executor.run(
    remaining,
    (outcome) => {
      // A trial that ran twice (a queue retry) counts once.
      if (byIndex.has(outcome.index) || !wanted.has(outcome.index)) return;
      byIndex.set(outcome.index, outcome);
      options.onOutcome?.(outcome, byIndex.size);
    },
    signal,
  );
  const outcomes = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const ranking = rankTrials(outcomes, options.rules);
  return {
    plan: options.plan,
    outcomes,
    ranking,
    overfitting: await overfittingOf(outcomes, ranking.ranked[0], options.executor),
    interrupted: outcomes.length < options.plan.trials.length,
  };
}

/** PBO over every finished trial (on the executor's threads when it can); the deflated Sharpe ratio of the best-ranked one. */
export async function overfittingOf(
  outcomes: readonly TrialOutcome[],
  best: TrialOutcome | undefined,
  executor?: TrialExecutor,
): Promise<Overfitting> {
  const first = outcomes[0];
  if (first === undefined) return { pbo: null, deflatedSharpe: null };
  const bounds = blockBounds(first.stats.count, first.stats.blockSums.length);
  const counts = bounds.slice(1).map((end, block) => end - bounds[block]!);
  const sharpeOf = (outcome: TrialOutcome): number => (outcome.stats.std > 0 ? outcome.stats.mean / outcome.stats.std : 0);
  return {
    pbo: await pboOn(
      executor,
      outcomes.map((outcome) => outcome.stats),
      counts,
    ),
    deflatedSharpe:
      best === undefined
        ? null
        : deflatedSharpe({
            trialSharpes: outcomes.map(sharpeOf),
            sharpe: sharpeOf(best),
            skewness: best.stats.skewness,
            kurtosis: best.stats.kurtosis,
            observations: best.stats.count,
          }),
  };
}

async function pboOn(executor: TrialExecutor | undefined, stats: readonly ReturnStats[], counts: readonly number[]): Promise<Pbo | null> {
  if (executor?.splitLogits === undefined || !pboDefined(stats.length, counts.length)) return probabilityOfOverfitting(stats, counts);
  return pboOfSplits(counts.length, await executor.splitLogits(splitInput(stats, counts, true), splitParts(counts.length)));
}
