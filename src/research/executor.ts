// Where trials run: the local worker pool or the Redis queue; the optimizer does not care which.
import type { SplitInput, SplitLogits, SplitPart } from './stats/pbo-splits.js';
import type { TrialOutcome, TrialTask } from './trial.js';

export interface TrialExecutor {
  /**
   * Runs the trials, calling onOutcome once per finished trial (in any order). When `signal` aborts, no new
   * trial starts, trials still running are dropped or (when short) finished, and the promise resolves.
   */
  run(trials: readonly TrialTask[], onOutcome: (outcome: TrialOutcome) => void, signal: AbortSignal): Promise<void>;
  /**
   * The overfitting statistic's splits, part by part, on the executor's threads (results in the parts'
   * order), calling `onPart` as each part is done; rejects once `signal` aborts. Absent: they are computed in
   * the calling thread.
   */
  splitLogits?(input: SplitInput, parts: readonly SplitPart[], progress: SplitProgress): Promise<SplitLogits[]>;
  close(): Promise<void>;
}

export interface SplitProgress {
  readonly onPart: () => void;
  readonly signal: AbortSignal;
}
