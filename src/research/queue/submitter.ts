// The queue executor: enqueues each trial as a BullMQ job on Redis, gathers the results `trader worker`s
// return, and counts each trial once (a retried job's second result is dropped by the optimizer).
import { createHash } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import type { TrialExecutor } from '../executor.js';
import type { TrialOutcome, TrialSettings } from '../trial.js';
import { QUEUE_NAME, queueConnection } from './connection.js';
import { jobId, type TrialJob } from './job.js';

export interface QueueExecutorOptions {
  readonly url: string;
  readonly settings: TrialSettings;
  readonly dataHash: string;
  /** The data path as workers should open it (relative to their working folder, or absolute). */
  readonly dataPath: string;
  /** Attempts per trial: a worker killed mid-trial leaves its job to be retried (default 5). */
  readonly attempts?: number;
}

/** Redis requests about many jobs are sent this many at a time (one at a time, large grids waited seconds). */
const REQUESTS_AT_ONCE = 500;

export async function createQueueExecutor(options: QueueExecutorOptions): Promise<TrialExecutor> {
  const connection = queueConnection(options.url);
  const queue = new Queue<TrialJob, TrialOutcome>(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  const run = createHash('sha256')
    .update(JSON.stringify([options.settings, options.dataHash, options.dataPath]))
    .digest('hex')
    .slice(0, 16);
  return {
    async run(trials, onOutcome, signal) {
      if (trials.length === 0) return;
      const pending = new Map(trials.map((trial) => [jobId(run, trial), trial.index]));
      const done = new Promise<void>((resolve, reject) => {
        const finish = (): void => {
          events.off('completed', onCompleted);
          events.off('failed', onFailed);
          signal.removeEventListener('abort', onAbort);
        };
        const onCompleted = ({ jobId: id, returnvalue }: { jobId: string; returnvalue: unknown }): void => {
          const outcome = typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue;
          const index = pending.get(id);
          if (index === undefined || outcome === null || outcome === undefined) return;
          pending.delete(id);
          // The same trial may have run for another plan (another number): it counts as this run's.
          onOutcome({ ...(outcome as TrialOutcome), index });
          if (pending.size === 0) finish(), resolve();
        };
        const onFailed = async ({ jobId: id, failedReason }: { jobId: string; failedReason: string }): Promise<void> => {
          if (!pending.has(id)) return;
          let state: string;
          try {
            state = (await (await queue.getJob(id))?.getState()) ?? 'failed';
          } catch {
            // The run ended (and its connection closed) while this failure was being looked at.
            return;
          }
          // A failure with attempts left is retried by BullMQ (the job waits again); one that stays failed (the
          // last attempt, or an error a retry cannot mend, such as other data on the worker) ends the run.
          if (state !== 'failed') return;
          finish();
          reject(new Error(`trial ${pending.get(id)} failed on a worker: ${failedReason}`));
        };
        const onAbort = (): void => {
          finish();
          resolve();
        };
        events.on('completed', onCompleted);
        events.on('failed', onFailed);
        signal.addEventListener('abort', onAbort);
      });
      await queue.addBulk(
        trials.map((trial) => ({
          name: 'trial',
          data: { run, settings: options.settings, dataPath: options.dataPath, dataHash: options.dataHash, trial },
          opts: {
            jobId: jobId(run, trial),
            attempts: options.attempts ?? 5,
            removeOnComplete: { age: 3600 },
            removeOnFail: { age: 24 * 3600 },
          },
        })),
      );
      // A resubmitted run: results of jobs finished before we listened are read back from Redis, and jobs that
      // failed for good (kept a day) are queued again — adding a job whose id exists does nothing. Only a job
      // read with its result counts: one that finishes after it was read sends its own event.
      const ids = [...pending.keys()];
      for (let from = 0; from < ids.length; from += REQUESTS_AT_ONCE)
        await Promise.all(
          ids.slice(from, from + REQUESTS_AT_ONCE).map(async (id) => {
            const job = await queue.getJob(id);
            if (job?.finishedOn === undefined) return;
            if (job.returnvalue !== null && job.returnvalue !== undefined)
              events.emit('completed', { jobId: id, returnvalue: JSON.stringify(job.returnvalue), prev: 'active' }, '0');
            else if (job.failedReason !== undefined) await job.retry('failed').catch(() => undefined);
          }),
        );
      try {
        await done;
      } finally {
        if (signal.aborted) {
          // Trials not started are taken off the queue.
          const left = [...pending.keys()];
          for (let from = 0; from < left.length; from += REQUESTS_AT_ONCE)
            await Promise.all(left.slice(from, from + REQUESTS_AT_ONCE).map((id) => queue.remove(id).catch(() => 0)));
        }
      }
    },
    async close() {
      await events.close();
      await queue.close();
    },
  };
}
