// A queued job: a batch of trials and what a `trader worker` needs to run them on its own machine (paths
// relative to its working folder, the content hashes of the data, the strategy and the risk file to check
// what it loaded). Each trial has a key
// naming what it runs, so a trial whose result Redis still holds is not run again, and a result is never
// handed to another trial that merely has the same number in another plan or window.
import { createHash } from 'node:crypto';
import type { TrialOutcome, TrialSettings, TrialTask } from '../trial.js';

export interface TrialJob {
  readonly run: string;
  /** TrialSettings with strategyFile and riskFile as the submitter gave them (resolved by the worker). */
  readonly settings: TrialSettings;
  readonly dataPath: string;
  readonly dataHash: string;
  /** The strategy's content hash (strategy-hash.ts): its file and local imports, as compiled. */
  readonly strategyHash: string;
  /** The risk file's content hash, when the run has one. */
  readonly riskHash?: string;
  readonly trials: readonly TrialTask[];
}

/** What a job returns: its trials' outcomes in the job's order, and how long they took on the worker. */
export interface TrialJobResult {
  readonly outcomes: readonly TrialOutcome[];
  readonly ms: number;
}

/**
 * One key per (run, trial), named by what the trial runs (its parameters and its window), not by its place in
 * a plan: another parameter space, or the next walk-forward window, numbers different trials the same.
 */
export function trialKey(run: string, trial: TrialTask): string {
  const combo = Object.keys(trial.combo)
    .sort()
    .map((name) => [name, trial.combo[name]]);
  const what = JSON.stringify([combo, trial.range === undefined ? null : [trial.range.from, trial.range.to]]);
  return `${run}-${sha(what)}`;
}

/** The id of a job of these trials: adding it again is a no-op, so the same batch is queued once. */
export function jobId(run: string, trials: readonly TrialTask[]): string {
  if (trials.length === 1) return trialKey(run, trials[0]!);
  return `${run}-${sha(trials.map((trial) => trialKey(run, trial)).join(' '))}`;
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}
