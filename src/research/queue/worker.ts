// `trader worker`: takes trials from the Redis queue and runs them on this machine's worker pool. The data
// is loaded from the path the job names (relative to this worker's folder, or --data) and must have the
// submitter's content hash; a worker killed mid-trial leaves the job locked until BullMQ hands it to another.
import { resolve } from 'node:path';
import { UnrecoverableError, Worker } from 'bullmq';
import { loadBacktestData } from '../../backtest/data.js';
import { dataHash } from '../data-hash.js';
import type { TrialExecutor } from '../executor.js';
import { createLocalPool } from '../pool/local-pool.js';
import { shareData } from '../shared-data.js';
import type { TrialOutcome, TrialSettings } from '../trial.js';
import { QUEUE_NAME, queueConnection } from './connection.js';
import type { TrialJob } from './job.js';

export interface QueueWorkerOptions {
  readonly url: string;
  readonly threads: number;
  /** Data path to use instead of the job's (the same content, elsewhere on this machine). */
  readonly dataPath?: string;
  /** How long a job stays locked without a heartbeat before another worker may take it (ms). */
  readonly lockMs?: number;
  readonly onTrial?: (job: TrialJob) => void;
  readonly onError?: (error: Error) => void;
}

export interface QueueWorker {
  close(): Promise<void>;
}

export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  let current: { readonly key: string; readonly pool: Promise<TrialExecutor> } | undefined;
  const poolFor = (job: TrialJob): Promise<TrialExecutor> => {
    const dataPath = resolve(options.dataPath ?? job.dataPath);
    const settings: TrialSettings = {
      ...job.settings,
      strategyFile: resolve(job.settings.strategyFile),
      ...(job.settings.riskFile === undefined ? {} : { riskFile: resolve(job.settings.riskFile) }),
    };
    const key = JSON.stringify([settings, dataPath, job.dataHash]);
    if (current?.key !== key) {
      const previous = current?.pool;
      const load = async (): Promise<TrialExecutor> => {
        await previous?.then((pool) => pool.close()).catch(() => undefined);
        const data = await loadBacktestData(dataPath, { symbols: settings.symbols as never });
        const hash = dataHash(data);
        if (hash !== job.dataHash)
          throw new UnrecoverableError(
            `the data at ${dataPath} on this worker has content hash ${hash}, the submitter's is ${job.dataHash}`,
          );
        return createLocalPool({ workers: options.threads, settings, data: shareData(data, hash) });
      };
      current = { key, pool: load() };
      current.pool.catch(() => {
        current = undefined;
      });
    }
    return current.pool;
  };
  const worker = new Worker<TrialJob, TrialOutcome>(
    QUEUE_NAME,
    async (job) => {
      options.onTrial?.(job.data);
      const pool = await poolFor(job.data);
      let outcome: TrialOutcome | undefined;
      await pool.run([job.data.trial], (result) => (outcome = result), new AbortController().signal);
      return outcome!;
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
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      const pool = await current?.pool.catch(() => undefined);
      await pool?.close();
    },
  };
}
