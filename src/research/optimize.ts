// An optimization run: the trial list (grid or seeded random positions of the space, combinations the
// strategy's schema refuses skipped and counted), run on an executor, finished trials kept as they come,
// then ranked, with the overfitting statistics of the whole set.
import { InvalidInputError } from '../domain/errors.js';
import type { StrategyDefinition } from '../strategy/define.js';
import type { ParamDefaults } from '../strategy/params.js';
import type { TrialExecutor } from './executor.js';
import { comboAt, type ParamCombo, type ParamSpace, shuffledPositions, spaceSize } from './param-space.js';
import { type Ranking, type RankingRules, rankTrials } from './ranking.js';
import { blockBounds } from './return-stats.js';
import { type DeflatedSharpe, deflatedSharpe } from './stats/deflated-sharpe.js';
import { type Pbo, pboDefined, pboOfSplits, pboUnjudgeable } from './stats/pbo.js';
import { type SplitInput, type SplitLogits, splitInputOf, splitLogits, splitParts } from './stats/pbo-splits.js';
import { OutcomeTable } from './outcome-table.js';
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

/**
 * Each trial's index is its grid position, so the same combination has the same index in every run. A
 * random search draws until it has `trials` combinations the strategy accepts (a refused draw is replaced
 * and counted), or has drawn MAX_DRAWS_PER_TRIAL times as many as it wants.
 */
export function planTrials(definition: StrategyDefinition<ParamDefaults>, settings: TrialSettings, spec: SearchSpec): TrialPlan {
  const trials: TrialTask[] = [];
  const skipped: { combo: ParamCombo; reason: string }[] = [];
  const size = spaceSize(spec.space);
  const wanted = spec.search === 'grid' ? size : Math.min(size, spec.trials ?? 100);
  const positions = spec.search === 'grid' ? Array.from({ length: size }, (_, index) => index) : shuffledPositions(size, spec.seed);
  let drawn = 0;
  for (const position of positions) {
    if (trials.length === wanted || drawn === wanted * MAX_DRAWS_PER_TRIAL) break;
    drawn += 1;
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
  return { trials, skipped, spaceSize: size };
}

/** A random search whose draws the strategy keeps refusing stops after this many draws per trial wanted. */
const MAX_DRAWS_PER_TRIAL = 20;

export interface Overfitting {
  readonly pbo: Pbo | null;
  /** Why the trials gave CSCV nothing to judge (pbo null), as pboUnjudgeable says. */
  readonly pboMissing?: string;
  readonly deflatedSharpe: DeflatedSharpe | null;
}

export interface OptimizeResult {
  readonly plan: TrialPlan;
  /** Every finished trial (resumed ones included), by index. */
  readonly outcomes: OutcomeTable;
  readonly ranking: Ranking;
  readonly overfitting: Overfitting;
  /** True when stopped before every trial finished. */
  readonly interrupted: boolean;
  /** True when stopped at all: before every trial finished, or during the overfitting statistic (then left out). */
  readonly stopped: boolean;
}

export interface OptimizeOptions {
  readonly plan: TrialPlan;
  readonly rules: RankingRules;
  readonly executor: TrialExecutor;
  /**
   * Trials finished by an earlier run (--resume); not run again. A table of this run's trials, each once,
   * is taken over (the new trials are added to it) rather than copied.
   */
  readonly finished?: Iterable<TrialOutcome>;
  /** Called once per newly finished trial (the trials file, the progress bar). */
  readonly onOutcome?: (outcome: TrialOutcome, done: number) => void;
  /** Called as the overfitting statistic's parts are done (0 of them first): the long last step of a big grid. */
  readonly onOverfitting?: (done: number, total: number) => void;
  /** Stops the trials; stopped after them, the overfitting statistic is left out (null). */
  readonly signal?: AbortSignal;
}

export async function optimize(options: OptimizeOptions): Promise<OptimizeResult> {
  const wanted = new Set(options.plan.trials.map((trial) => trial.index));
  const done = new Set<number>();
  const finished = startingTable(options.finished ?? [], wanted, done);
  const keep = (outcome: TrialOutcome): void => {
    done.add(outcome.index);
    finished.add(outcome);
  };
  const remaining = options.plan.trials.filter((trial) => !done.has(trial.index));
  const signal = options.signal ?? new AbortController().signal;
  await options.executor.run(
    remaining,
    (outcome) => {
      // A trial that ran twice (a queue retry) counts once.
      if (done.has(outcome.index) || !wanted.has(outcome.index)) return;
      keep(outcome);
      options.onOutcome?.(outcome, done.size);
    },
    signal,
  );
  finished.sortByIndex();
  const ranking = rankTrials(finished, options.rules);
  return {
    plan: options.plan,
    outcomes: finished,
    ranking,
    overfitting: await overfittingOf(finished, ranking.rows[0], options.executor, {
      signal,
      ...(options.onOverfitting === undefined ? {} : { onProgress: options.onOverfitting }),
    }),
    interrupted: finished.length < options.plan.trials.length,
    stopped: signal.aborted,
  };
}

/** The earlier trials of this run, each once, with their indexes in `done`: a table of just those is taken over. */
function startingTable(given: Iterable<TrialOutcome>, wanted: ReadonlySet<number>, done: Set<number>): OutcomeTable {
  if (given instanceof OutcomeTable) {
    for (let row = 0; row < given.length; row += 1) done.add(given.indexAt(row));
    if (done.size === given.length && [...done].every((index) => wanted.has(index))) return given;
    done.clear();
  }
  const table = new OutcomeTable();
  for (const outcome of given)
    if (wanted.has(outcome.index) && !done.has(outcome.index)) {
      done.add(outcome.index);
      table.add(outcome);
    }
  return table;
}

/**
 * PBO over every finished trial whose strategy did not throw (a failed trial's returns cover only the bars
 * before it threw), on the executor's threads when it can; the deflated Sharpe ratio of the best-ranked one
 * (a row of the table).
 */
export async function overfittingOf(
  outcomes: OutcomeTable,
  best: number | undefined,
  executor?: TrialExecutor,
  progress: { readonly signal?: AbortSignal; readonly onProgress?: (done: number, total: number) => void } = {},
): Promise<Overfitting> {
  const rows = completeRows(outcomes);
  if (rows.length === 0) return { pbo: null, deflatedSharpe: null };
  const first = outcomes.statsAt(rows[0]!);
  const bounds = blockBounds(first.count, first.blockSums.length);
  const counts = bounds.slice(1).map((end, block) => end - bounds[block]!);
  const sharpes = Array.from(rows, (row) => {
    const std = outcomes.stat(row, 'std');
    return std > 0 ? outcomes.stat(row, 'mean') / std : 0;
  });
  const { pbo, missing } = await pboOn(
    executor,
    outcomes,
    rows,
    counts,
    progress.signal ?? new AbortController().signal,
    progress.onProgress,
  );
  const pboPart = missing === undefined ? { pbo } : { pbo, pboMissing: missing };
  if (best === undefined) return { ...pboPart, deflatedSharpe: null };
  const chosen = outcomes.statsAt(best);
  return {
    ...pboPart,
    deflatedSharpe: deflatedSharpe({
      trialSharpes: sharpes,
      sharpe: sharpes[rows.indexOf(best)]!,
      skewness: chosen.skewness,
      kurtosis: chosen.kurtosis,
      observations: chosen.count,
    }),
  };
}

/** Rows of the trials that ran to the end (their strategy did not throw). */
export function completeRows(outcomes: OutcomeTable): number[] {
  const rows: number[] = [];
  for (let row = 0; row < outcomes.length; row += 1) if (outcomes.failure(row) === null) rows.push(row);
  return rows;
}

async function pboOn(
  executor: TrialExecutor | undefined,
  outcomes: OutcomeTable,
  rows: readonly number[],
  counts: readonly number[],
  signal: AbortSignal,
  onProgress?: (done: number, total: number) => void,
): Promise<{ readonly pbo: Pbo | null; readonly missing?: string }> {
  if (!pboDefined(rows.length, counts.length) || signal.aborted) return { pbo: null };
  const input = splitInputOf(rows.length, counts, (trial) => outcomes.statsAt(rows[trial]!), executor?.splitLogits !== undefined);
  const missing = pboUnjudgeable(input);
  if (missing !== null) return { pbo: null, missing };
  return { pbo: await pboOfParts(executor, input, counts.length, signal, onProgress) };
}

/** PBO from the splits in parts: on the executor's threads when it has them, else here between turns of the event loop. */
async function pboOfParts(
  executor: TrialExecutor | undefined,
  input: SplitInput,
  blocks: number,
  signal: AbortSignal,
  onProgress?: (done: number, total: number) => void,
): Promise<Pbo | null> {
  const parts = splitParts(blocks);
  let done = 0;
  const onPart = (): void => onProgress?.((done += 1), parts.length);
  onProgress?.(0, parts.length);
  if (executor?.splitLogits === undefined) {
    const logits: SplitLogits[] = [];
    for (const part of parts) {
      // Between parts the event loop turns, so Ctrl-C is heard (a queue run's big grid takes a minute here).
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) return null;
      logits.push(splitLogits(input, part));
      onPart();
    }
    return pboOfSplits(blocks, logits);
  }
  try {
    return pboOfSplits(blocks, await executor.splitLogits(input, parts, { onPart, signal }));
  } catch (error) {
    if (signal.aborted) return null;
    throw error;
  }
}
