// The local executor: a piscina pool of worker threads (one per core by default), each running trials over
// the same shared data (handed to each thread once, as its workerData). Trials go out in batches sized to
// take a few tens of milliseconds, so this thread handles a message per batch rather than per trial; each
// thread is handed its next batch while it runs one, so it goes on at once instead of waiting for this
// thread, which runs late when the workers fill every core.
import { getMaxListeners, setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { TrialExecutor } from '../executor.js';
import type { SharedData } from '../shared-data.js';
import type { SplitLogits } from '../stats/pbo-splits.js';
import type { TrialSettings } from '../trial.js';
import type { BatchResult, PoolSetup, SplitTask, TrialBatch } from './worker.js';

const IN_FLIGHT_PER_THREAD = 2;
/** A batch is sized to take about this long: what Ctrl-C may wait for per thread, and what ends a run late. */
const BATCH_MS = 20;
const MAX_BATCH = 64;

export function defaultWorkers(): number {
  return availableParallelism();
}

export function createLocalPool(options: {
  readonly workers: number;
  readonly settings: TrialSettings;
  readonly data: SharedData;
}): TrialExecutor {
  const setup: PoolSetup = { settings: options.settings, data: options.data };
  const pool = new Piscina<TrialBatch | SplitTask, BatchResult | SplitLogits>({
    filename: new URL('./worker-entry.mjs', import.meta.url).href,
    minThreads: options.workers,
    maxThreads: options.workers,
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: IN_FLIGHT_PER_THREAD,
    workerData: setup,
  });
  // A single trial aborted on Ctrl-C may send its result as the abort lands: piscina then emits that late
  // result as an 'error' event, which unheard would end the process.
  pool.on('error', (error: Error) => {
    if (!error.message.startsWith('Unexpected message from Worker')) throw error;
  });
  const lanes = options.workers * IN_FLIGHT_PER_THREAD;
  /** Milliseconds per trial as the threads measured them; unknown until the first batch is back. */
  let trialMs: number | undefined;
  const batchSize = (remaining: number): number => {
    const wanted = trialMs === undefined ? 1 : Math.max(1, Math.min(MAX_BATCH, Math.floor(BATCH_MS / Math.max(trialMs, 1e-3))));
    // Near the end, smaller batches so every thread finishes at about the same time.
    return Math.min(wanted, Math.ceil(remaining / lanes));
  };
  return {
    async run(trials, onOutcome, signal) {
      // Each single trial in flight listens to the signal (piscina), more than Node's 10 with 6 threads or more.
      setMaxListeners(Math.max(getMaxListeners(signal), lanes + 10), signal);
      let next = 0;
      let failure: unknown;
      const lane = async (): Promise<void> => {
        while (next < trials.length && !signal.aborted && failure === undefined) {
          const batch = trials.slice(next, next + batchSize(trials.length - next));
          next += batch.length;
          try {
            // Stopped, a batch of several short trials still finishes, so its trials are kept; a single trial
            // (a slow one) is dropped at once.
            const result = (await pool.run({ trials: batch }, batch.length === 1 ? { signal } : {})) as BatchResult;
            trialMs = result.ms / batch.length;
            for (const outcome of result.outcomes) onOutcome(outcome);
          } catch (error) {
            if (signal.aborted) return;
            failure ??= error;
          }
        }
      };
      await Promise.all(Array.from({ length: lanes }, lane));
      if (failure !== undefined) throw failure;
    },
    async splitLogits(input, parts, { onPart, signal }) {
      // A part at a time per thread: stopped, no part starts, and those running finish (piscina ends a thread
      // whose task is aborted mid-run, and a pool closed under a running task reports its result as an error).
      const logits: SplitLogits[] = new Array(parts.length);
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < parts.length && !signal.aborted) {
          const at = next++;
          logits[at] = (await pool.run({ input, part: parts[at]! }, { name: 'runSplitTask' })) as SplitLogits;
          onPart();
        }
      };
      await Promise.all(Array.from({ length: options.workers }, lane));
      if (signal.aborted) throw new Error('stopped');
      return logits;
    },
    close: () => pool.destroy(),
  };
}
