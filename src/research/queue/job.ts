// A queued trial: what a `trader worker` needs to run it on its own machine (paths relative to its working
// folder, the data's content hash to check what it loaded), and the id that keeps it from running twice.
import { createHash } from 'node:crypto';
import type { TrialSettings, TrialTask } from '../trial.js';

export interface TrialJob {
  readonly run: string;
  /** TrialSettings with strategyFile and riskFile as the submitter gave them (resolved by the worker). */
  readonly settings: TrialSettings;
  readonly dataPath: string;
  readonly dataHash: string;
  readonly trial: TrialTask;
}

/**
 * One job id per (run, trial): adding it again is a no-op, so a trial is queued once. The trial is named by
 * what it runs (its parameters and its window), not by its place in a plan: another parameter space, or the
 * next walk-forward window, numbers different trials the same.
 */
export function jobId(run: string, trial: TrialTask): string {
  const combo = Object.keys(trial.combo)
    .sort()
    .map((name) => [name, trial.combo[name]]);
  const what = JSON.stringify([combo, trial.range === undefined ? null : [trial.range.from, trial.range.to]]);
  return `${run}-${createHash('sha256').update(what).digest('hex').slice(0, 24)}`;
}
