// A queued trial: what a `trader worker` needs to run it on its own machine (paths relative to its working
// folder, the data's content hash to check what it loaded), and the id that keeps it from running twice.
import type { TrialSettings, TrialTask } from '../trial.js';

export interface TrialJob {
  readonly run: string;
  /** TrialSettings with strategyFile and riskFile as the submitter gave them (resolved by the worker). */
  readonly settings: TrialSettings;
  readonly dataPath: string;
  readonly dataHash: string;
  readonly trial: TrialTask;
}

/** One job id per (run, trial): adding it again is a no-op, so a trial is queued once. */
export function jobId(run: string, index: number): string {
  return `${run}-${index}`;
}
