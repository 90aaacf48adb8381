// The local executor: a piscina pool of worker threads (one per core by default), each running trials over
// the same shared data. Each thread is handed its next trial while it runs one, so it goes on at once
// instead of waiting for this thread to hand it one: when the workers fill every core, this thread runs
// late, and a thread that waited for each trial stood idle between them.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { TrialExecutor } from '../executor.js';
import type { SharedData } from '../shared-data.js';
import type { TrialOutcome, TrialSettings } from '../trial.js';
import type { PoolTask } from './worker.js';

const IN_FLIGHT_PER_THREAD = 2;

export function defaultWorkers(): number {
  return availableParallelism();
}

export function createLocalPool(options: {
  readonly workers: number;
  readonly settings: TrialSettings;
  readonly data: SharedData;
}): TrialExecutor {
  const pool = new Piscina<PoolTask, TrialOutcome>({
    filename: new URL('./worker-entry.mjs', import.meta.url).href,
    minThreads: options.workers,
    maxThreads: options.workers,
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: IN_FLIGHT_PER_THREAD,
  });
  return {
    async run(trials, onOutcome, signal) {
      let next = 0;
      let failure: unknown;
      const lane = async (): Promise<void> => {
        while (next < trials.length && !signal.aborted && failure === undefined) {
          const trial = trials[next]!;
          next += 1;
          try {
            onOutcome(await pool.run({ settings: options.settings, data: options.data, trial }, { signal }));
          } catch (error) {
            if (signal.aborted) return;
            failure ??= error;
          }
        }
      };
      await Promise.all(Array.from({ length: options.workers * IN_FLIGHT_PER_THREAD }, lane));
      if (failure !== undefined) throw failure;
    },
    close: () => pool.destroy(),
  };
}
