// The trial worker of the local pool (a piscina worker thread): builds the run's context once (the strategy
// module and the shared data, handed over as the thread's workerData) and runs a batch of trials per task,
// or one part of the overfitting statistic's splits.
import { workerData } from 'node:worker_threads';
import { loadRiskConfig } from '../../risk/config.js';
import { dataFromShared, type SharedData } from '../shared-data.js';
import { type SplitInput, type SplitLogits, splitLogits, type SplitPart } from '../stats/pbo-splits.js';
import { loadDefinition } from '../strategy-file.js';
import { runTrial, type TrialContext, type TrialOutcome, type TrialSettings, type TrialTask } from '../trial.js';
import { reportUnhandledStreamErrors } from '../../strategy/unhandled-errors.js';
import { consoleToStderr } from '../../log/console-to-stderr.js';

/** The thread's workerData: the same for every task of the pool. */
export interface PoolSetup {
  readonly settings: TrialSettings;
  /** The buffers are shared, not copied. */
  readonly data: SharedData;
}

export interface TrialBatch {
  readonly trials: readonly TrialTask[];
}

export interface BatchResult {
  readonly outcomes: readonly TrialOutcome[];
  /** Time the thread spent on the batch, for sizing the next ones. */
  readonly ms: number;
}

consoleToStderr();

let context: Promise<TrialContext> | undefined;

// A strategy's own subscription that throws is reported as one line, not a crash of the thread (see there).
reportUnhandledStreamErrors();

function contextOf(setup: PoolSetup): Promise<TrialContext> {
  context ??= (async () => ({
    definition: await loadDefinition(setup.settings.strategyFile, setup.settings.symbols),
    data: dataFromShared(setup.data),
    risk: setup.settings.riskFile === undefined ? undefined : await loadRiskConfig(setup.settings.riskFile),
  }))();
  return context;
}

export default async function runTrialBatch(batch: TrialBatch): Promise<BatchResult> {
  const setup = workerData as PoolSetup;
  const trialContext = await contextOf(setup);
  const start = performance.now();
  const outcomes: TrialOutcome[] = [];
  for (const trial of batch.trials) outcomes.push(await runTrial(trialContext, setup.settings, trial));
  return { outcomes, ms: performance.now() - start };
}

export interface SplitTask {
  /** Shared buffers: every part reads the same copy. */
  readonly input: SplitInput;
  readonly part: SplitPart;
}

export function runSplitTask(task: SplitTask): SplitLogits {
  return splitLogits(task.input, task.part);
}
