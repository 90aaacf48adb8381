// `trader worker`: takes jobs of trials from the Redis queue and runs them on this machine's worker pool. The data
// is loaded from the path the job names (relative to this worker's folder, or --data); it, the strategy (with
// its local imports) and the risk file must have the submitter's content hashes. A worker killed mid-trial
// leaves the job locked until BullMQ hands it to another.
import { resolve } from 'node:path';
import { UnrecoverableError, Worker } from 'bullmq';
import { loadBacktestData } from '../../backtest/data.js';
import { dataHash } from '../data-hash.js';
import type { TrialExecutor } from '../executor.js';
import { fileHash } from '../file-hash.js';
import { strategyHash } from '../strategy-hash.js';
import { createLocalPool } from '../pool/local-pool.js';
import { shareData } from '../shared-data.js';
import type { TrialOutcome, TrialSettings } from '../trial.js';
import { QUEUE_NAME, queueConnection, whenAccepted } from './connection.js';
import type { TrialJob, TrialJobResult } from './job.js';

export interface QueueWorkerOptions {
  readonly url: string;
  readonly threads: number;
  /** Data path to use instead of the job's (the same content, elsewhere on this machine). */
  readonly dataPath?: string;
  /** How long a job stays locked without a heartbeat before another worker may take it (ms). */
  readonly lockMs?: number;
  /** Told of each trial as it finishes. */
  readonly onTrial?: (outcome: TrialOutcome) => void;
  readonly onError?: (error: Error) => void;
  /** Told when a job fails on this worker (other data here, a strategy file missing…), retried or not. */
  readonly onJobFailed?: (error: Error) => void;
}

export interface QueueWorker {
  close(): Promise<void>;
}

/** A pool for one run's settings and data, and the jobs running on it. */
interface RunPool {
  readonly pool: Promise<TrialExecutor>;
  active: number;
  /** Dropped from the kept pools: closed once its own jobs are done. */
  retired: boolean;
}

/** Runs sharing the queue each keep a pool; more than this many, and the least recently used is closed. */
const KEPT_POOLS = 2;

export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  // By key, least recently used first.
  const pools = new Map<string, RunPool>();
  const close = (entry: RunPool): Promise<void> => entry.pool.then((pool) => pool.close()).catch(() => undefined);
  const poolFor = (job: TrialJob): RunPool => {
    const dataPath = resolve(options.dataPath ?? job.dataPath);
    const settings: TrialSettings = {
      ...job.settings,
      strategyFile: resolve(job.settings.strategyFile),
      ...(job.settings.riskFile === undefined ? {} : { riskFile: resolve(job.settings.riskFile) }),
    };
    // An edited strategy or risk file is another run: its pool loads the files again.
    const key = JSON.stringify([settings, dataPath, job.dataHash, job.strategyHash, job.riskHash ?? null]);
    const kept = pools.get(key);
    if (kept !== undefined) {
      pools.delete(key);
      pools.set(key, kept);
      return kept;
    }
    const load = async (): Promise<TrialExecutor> => {
      refuseOtherFile('strategy', settings.strategyFile, await strategyHash(settings.strategyFile), job.strategyHash);
      if (settings.riskFile !== undefined) refuseOtherFile('risk file', settings.riskFile, await fileHash(settings.riskFile), job.riskHash);
      const data = await loadBacktestData(dataPath, { symbols: settings.symbols as never });
      const hash = dataHash(data);
      if (hash !== job.dataHash)
        throw new UnrecoverableError(`the data at ${dataPath} on this worker has content hash ${hash}, the submitter's is ${job.dataHash}`);
      return createLocalPool({ workers: options.threads, settings, data: shareData(data, hash) });
    };
    const entry: RunPool = { pool: load(), active: 0, retired: false };
    entry.pool.catch(() => {
      if (pools.get(key) === entry) pools.delete(key);
    });
    pools.set(key, entry);
    // Another run's jobs may still be running on an evicted pool (runs share a queue): it closes after them.
    for (const [oldKey, old] of pools) {
      if (pools.size <= KEPT_POOLS) break;
      pools.delete(oldKey);
      old.retired = true;
      if (old.active === 0) void close(old);
    }
    return entry;
  };
  // Waits for a Redis not up yet; refused (a wrong password, a database it lacks), the worker does not start.
  await whenAccepted(options.url, (error) => options.onError?.(error));
  const worker = new Worker<TrialJob, TrialJobResult>(
    QUEUE_NAME,
    async (job) => {
      const { trials } = job.data;
      if (!Array.isArray(trials) || typeof job.data.strategyHash !== 'string')
        throw new UnrecoverableError('a job from another version of trader (it names no trials or no strategy hash)');
      const entry = poolFor(job.data);
      entry.active += 1;
      try {
        const pool = await entry.pool;
        const start = performance.now();
        // The pool hands outcomes back as its threads finish them; the job returns them in its own order.
        const at = new Map(trials.map((trial, position) => [trial.index, position]));
        const outcomes: TrialOutcome[] = new Array(trials.length);
        await pool.run(
          trials,
          (outcome) => {
            outcomes[at.get(outcome.index)!] = outcome;
            options.onTrial?.(outcome);
          },
          new AbortController().signal,
        );
        return { outcomes, ms: performance.now() - start };
      } finally {
        entry.active -= 1;
        if (entry.retired && entry.active === 0) void close(entry);
      }
    },
    {
      connection: queueConnection(options.url),
      concurrency: options.threads * 2,
      lockDuration: options.lockMs ?? 30_000,
      stalledInterval: Math.max(500, Math.floor((options.lockMs ?? 30_000) / 2)),
      maxStalledCount: 5,
    },
  );
  worker.on('error', (error) => options.onError?.(error));
  worker.on('failed', (_job, error) => options.onJobFailed?.(error));
  await worker.waitUntilReady();
  return {
    async close() {
      // Waits for the running jobs, whose retired pools close as they finish.
      await worker.close();
      await Promise.all([...pools.values()].map(close));
    },
  };
}

/** A file here whose content is not the submitter's: the trials would run other code or limits than asked. */
function refuseOtherFile(what: string, path: string, here: string, submitters: string | undefined): void {
  if (here !== submitters)
    throw new UnrecoverableError(
      `the ${what} at ${path} on this worker has content hash ${here}, the submitter's is ${submitters ?? 'none'}`,
    );
}
