// The trial worker of the local pool (a piscina worker thread): keeps the strategy module and the shared
// data of the current run, rebuilt once per thread, and runs one trial per task.
import { loadRiskConfig } from '../../risk/config.js';
import { dataFromShared, type SharedData } from '../shared-data.js';
import { runTrial, type TrialContext, type TrialOutcome, type TrialSettings, type TrialTask } from '../trial.js';
import { loadDefinition } from '../strategy-file.js';

export interface PoolTask {
  readonly settings: TrialSettings;
  /** Passed with every task: the buffers are shared, only their handles are cloned. */
  readonly data: SharedData;
  readonly trial: TrialTask;
}

let cached: { readonly key: string; readonly context: Promise<TrialContext> } | undefined;

async function contextFor(task: PoolTask): Promise<TrialContext> {
  const key = `${task.settings.strategyFile}\u0000${task.settings.riskFile ?? ''}\u0000${task.data.id}`;
  if (cached?.key !== key) {
    const load = async (): Promise<TrialContext> => ({
      definition: await loadDefinition(task.settings.strategyFile, task.settings.symbols),
      data: dataFromShared(task.data),
      risk: task.settings.riskFile === undefined ? undefined : await loadRiskConfig(task.settings.riskFile),
    });
    cached = { key, context: load() };
  }
  return cached.context;
}

export default async function runPoolTask(task: PoolTask): Promise<TrialOutcome> {
  return runTrial(await contextFor(task), task.settings, task.trial);
}
