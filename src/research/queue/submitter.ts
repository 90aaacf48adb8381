// The queue executor: enqueues the trials as BullMQ jobs on Redis a window at a time, several short trials to
// a job (job-size.ts), gathers the results `trader worker`s return, and counts each trial once (a retried
// job's second result is dropped by the optimizer). Redis holds at most a window of a run's unfinished trials
// and a bounded number of finished ones, however big the grid.
import { createHash } from 'node:crypto';
import { type Job, Queue, QueueEvents } from 'bullmq';
import type { TrialExecutor } from '../executor.js';
import type { TrialOutcome, TrialSettings, TrialTask } from '../trial.js';
import { closeWhenSettled, QUEUE_NAME, queueConnection, shownUrl, whenConnected } from './connection.js';
import { jobId, trialKey, type TrialJob, type TrialJobResult } from './job.js';
import { JobSizer, nextJobs, PROBE_TRIALS } from './job-size.js';
import { EVENTS_KEPT, JOBS_ADDED_AT_ONCE, KEPT_FINISHED, QUEUE_WINDOW } from './limits.js';

export interface QueueExecutorOptions {
  readonly url: string;
  readonly settings: TrialSettings;
  readonly dataHash: string;
  /** The strategy's content hash: a worker whose strategy file (or a file it imports) differs refuses the trials. */
  readonly strategyHash: string;
  /** The risk file's content hash (with --risk): a worker whose risk file differs refuses the trials. */
  readonly riskHash?: string;
  /** The data path as workers should open it (relative to their working folder, or absolute). */
  readonly dataPath: string;
  /** Attempts per trial: a worker killed mid-trial leaves its job to be retried (default 5). */
  readonly attempts?: number;
  /**
   * Trials on the queue at once whose results have not come back (default QUEUE_WINDOW): more are added as
   * half of them finish. It must exceed what every worker together runs at once.
   */
  readonly window?: number;
  /** Finished trials Redis keeps, for an hour, for a run submitted again: at most this many (default KEPT_FINISHED). */
  readonly keepFinished?: number;
  /**
   * Every this long (default 10 s), the jobs pending since the last look are read back from Redis: a
   * completed job whose event was trimmed from Redis's stream before it was read counts then, and one Redis
   * no longer has at all (trimmed from the finished jobs it keeps) is queued again.
   */
  readonly stallMs?: number;
  /** Told when no worker listens at the start, when one comes, when Redis is lost and when it is back (a line for the user). */
  readonly onNotice?: (message: string) => void;
}

/** Redis requests about many jobs are sent this many at a time (one at a time, large grids waited seconds). */
const REQUESTS_AT_ONCE = 500;

/** `ask` for every id, REQUESTS_AT_ONCE of them at a time. */
async function forEachInBatches(ids: readonly string[], ask: (id: string) => Promise<unknown>): Promise<void> {
  for (let from = 0; from < ids.length; from += REQUESTS_AT_ONCE) await Promise.all(ids.slice(from, from + REQUESTS_AT_ONCE).map(ask));
}

/** The id of the newest entry of the queue's event stream ("0-0" while it has none). */
async function lastEventId(queue: Queue): Promise<string> {
  const client = await queue.client;
  client.defineCommand('traderLastEventId', {
    numberOfKeys: 1,
    readOnly: true,
    lua: "local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1); if last[1] then return last[1][1] end; return '0-0'",
  });
  return String(await client.runCommand('traderLastEventId', [queue.keys.events]));
}

export async function createQueueExecutor(options: QueueExecutorOptions): Promise<TrialExecutor> {
  // Redis unreachable at the start refuses the run; once connected, a lost connection is retried (a restart)
  // until the run gives it up (refused at the start, or closed while Redis is away).
  let givenUp = false;
  const connection = { ...queueConnection(options.url), retryStrategy: (times: number) => (givenUp ? null : Math.min(times * 200, 2000)) };
  const queue = new Queue<TrialJob, TrialJobResult>(QUEUE_NAME, { connection, streams: { events: { maxLen: EVENTS_KEPT } } });
  // Heard, or an 'error' event would end the process: the first one refuses the start (whenConnected); later
  // ones are retried by the client, and the run waits through them.
  let lastError = '';
  queue.on('error', (error) => {
    lastError = error.message;
  });
  let events: QueueEvents | undefined;
  try {
    await whenConnected(options.url, [queue]);
    // The events are read from the stream's last entry now, before any job of this run is queued: read from
    // "the newest" ($, BullMQ's default), those that come before its first read are never seen.
    events = new QueueEvents(QUEUE_NAME, { connection, lastEventId: await lastEventId(queue) });
    events.on('error', () => undefined);
    await whenConnected(options.url, [events]);
  } catch (error) {
    // The clients stop at their next retry; one that connected but was refused (a database Redis lacks) stays
    // open unless closed: closed once it settled, in the background (closed before, its connection's failure
    // would come after its listeners were removed, and end the process).
    givenUp = true;
    void closeWhenSettled([queue, ...(events === undefined ? [] : [events])]);
    throw error;
  }
  // By content too: results Redis keeps of an edited strategy or risk file are not this run's.
  const run = createHash('sha256')
    .update(JSON.stringify([options.settings, options.dataHash, options.dataPath, options.strategyHash, options.riskHash ?? null]))
    .digest('hex')
    .slice(0, 16);
  const window = Math.max(1, options.window ?? QUEUE_WINDOW);
  // Kept from run to run (the windows of a walk-forward, a grid resumed): their trials take about as long.
  const sizer = new JobSizer();

  const keepFinished = options.keepFinished ?? KEPT_FINISHED;
  const enqueue = (jobs: readonly (readonly TrialTask[])[]) =>
    queue.addBulk(
      jobs.map((trials) => ({
        name: 'trials',
        data: {
          run,
          settings: options.settings,
          dataPath: options.dataPath,
          dataHash: options.dataHash,
          strategyHash: options.strategyHash,
          ...(options.riskHash === undefined ? {} : { riskHash: options.riskHash }),
          trials,
        },
        opts: {
          jobId: jobId(run, trials),
          attempts: options.attempts ?? 5,
          // Redis trims finished jobs by count: about keepFinished trials at this job's size.
          removeOnComplete: { age: 3600, count: Math.max(1, Math.floor(keepFinished / trials.length)) },
          removeOnFail: { age: 24 * 3600 },
        },
      })),
    );

  /**
   * Results of this run's trials that finished before it was submitted (again), read back from the finished
   * jobs Redis keeps; the trials read are given to `onOutcome` and left out of the run.
   */
  const readFinished = async (trials: readonly TrialTask[], onOutcome: (outcome: TrialOutcome) => void): Promise<TrialTask[]> => {
    const prefix = `${run}-`;
    const kept = (await queue.getRanges(['completed'], 0, -1)).filter((id) => id.startsWith(prefix));
    if (kept.length === 0) return [...trials];
    const indexOf = new Map(trials.map((trial) => [trialKey(run, trial), trial.index]));
    const read = new Set<number>();
    await forEachInBatches(kept, async (id) => {
      const job = await queue.getJob(id);
      const jobTrials = job?.data.trials;
      const outcomes = job?.returnvalue?.outcomes;
      // Jobs of another version of trader are passed over (their trials run again).
      if (!Array.isArray(jobTrials) || !Array.isArray(outcomes) || outcomes.length !== jobTrials.length) return;
      for (let at = 0; at < jobTrials.length; at += 1) {
        const index = indexOf.get(trialKey(run, jobTrials[at]!));
        if (index === undefined || read.has(index)) continue;
        read.add(index);
        // The same trial may have run for another plan (another number): it counts as this run's.
        onOutcome({ ...outcomes[at]!, index });
      }
    });
    return trials.filter((trial) => !read.has(trial.index));
  };

  /**
   * Jobs of a batch just added that were already there: one finished meanwhile sends its result now (one that
   * finishes after it was read sends its own event); one that failed for good (kept a day) is queued again —
   * adding a job whose id exists does nothing.
   */
  const readBack = (ids: readonly string[]): Promise<void> =>
    forEachInBatches(ids, async (id) => {
      const job = await queue.getJob(id);
      if (job?.finishedOn !== undefined) await giveBack(job, id);
    });

  /** A finished job's result, as its completed event brings it; a failed one (attempts used up) runs again. */
  const giveBack = async (job: Job<TrialJob, TrialJobResult>, id: string): Promise<void> => {
    if (job.returnvalue !== null && job.returnvalue !== undefined)
      events.emit('completed', { jobId: id, returnvalue: JSON.stringify(job.returnvalue), prev: 'active' }, '0');
    else if (job.failedReason !== undefined) await job.retry('failed').catch(() => undefined);
  };

  // The queue's connection: told each time it is ready again (after a lost one); and the events' connection.
  const client = await queue.client;
  const eventsClient = await events.client;
  let away = false;
  client.on('reconnecting', () => {
    if (away) return;
    away = true;
    options.onNotice?.(`lost Redis at ${shownUrl(options.url)}${lastError === '' ? '' : ` (${lastError})`}; retrying`);
  });
  client.on('ready', () => {
    if (!away) return;
    away = false;
    options.onNotice?.(`Redis at ${shownUrl(options.url)} is back`);
  });

  /**
   * Waits for `work` while the queue's connection lasts: true once it finished, false if the connection was
   * lost, before or meanwhile (the client then reconnects; closing it on purpose does not).
   */
  const whileConnected = (work: () => Promise<unknown>): Promise<boolean> =>
    new Promise((resolve) => {
      if (client.status !== 'ready') return resolve(false);
      const onLost = (): void => resolve(false);
      client.once('reconnecting', onLost);
      work().then(
        () => (client.off('reconnecting', onLost), resolve(true)),
        () => (client.off('reconnecting', onLost), resolve(false)),
      );
    });

  return {
    async run(all, onOutcome, signal) {
      if (all.length === 0) return;
      const trials = await readFinished(all, onOutcome);
      if (trials.length === 0 || signal.aborted) return;
      // Jobs on the queue whose results have not come, by id, and how many trials they hold.
      const pending = new Map<string, readonly TrialTask[]>();
      let pendingTrials = 0;
      // trials[0, queued) have been put on the queue.
      let queued = 0;
      let ended = false;
      // Told the user no worker was there, and not yet that one came.
      let waiting = false;
      // One filling at a time (it adds until the window is over half full); the run waits for it before it cleans up.
      let adding: Promise<void> = Promise.resolve();
      let filling = false;
      let settle!: (error?: Error) => void;
      const done = new Promise<void>((resolve, reject) => {
        settle = (error) => (error === undefined ? resolve() : reject(error));
      });
      // Jobs pending at the last look: those still pending at this one were queued stallMs ago or more. Their
      // results may have been missed (an event trimmed from the stream before it was read): read back from
      // the job, or, the job gone too (trimmed from the finished ones Redis keeps), the trials queued again.
      let seen = new Set<string>();
      const lookForLost = setInterval(() => {
        if (ended || client.status !== 'ready') return;
        const old = [...pending.keys()].filter((id) => seen.has(id));
        seen = new Set(pending.keys());
        if (old.length === 0) return;
        adding = adding
          .then(async () => {
            // Jobs still waiting or running are as they should be: only the others are read (one list read
            // instead of a job read each, when slow trials keep thousands of one-trial jobs waiting).
            const queued = new Set(await queue.getRanges(['wait', 'active', 'delayed', 'prioritized', 'paused'], 0, -1));
            await recover(
              old.filter((id) => !queued.has(id)),
              'whose results Redis dropped',
            );
          })
          .catch(failing);
      }, options.stallMs ?? 10_000);
      lookForLost.unref();
      const end = (error?: Error): void => {
        if (ended) return;
        ended = true;
        clearInterval(lookForLost);
        events.off('completed', onCompleted);
        events.off('failed', onFailed);
        client.off('ready', onReconnected);
        signal.removeEventListener('abort', onAbort);
        settle(error);
      };
      const fill = async (): Promise<void> => {
        for (;;) {
          if (ended || signal.aborted || queued >= trials.length) return;
          const limit = sizer.measured ? window : Math.min(window, PROBE_TRIALS);
          if (sizer.measured ? pendingTrials > window / 2 : pendingTrials >= limit) return;
          const room = limit - pendingTrials;
          // One size for the jobs added together: sized job by job, the shrinking rest would end a run in
          // many jobs of a trial or two.
          // At most JOBS_ADDED_AT_ONCE jobs an add: each adds events to the stream, and a burst beyond what it
          // keeps (EVENTS_KEPT) would trim away results the submitter has not read yet.
          const jobs = nextJobs(trials.slice(queued, queued + room), room, sizer.size(trials.length - queued)).slice(0, JOBS_ADDED_AT_ONCE);
          for (const job of jobs) queued += job.length;
          const ids = jobs.map((job) => jobId(run, job));
          for (let index = 0; index < jobs.length; index += 1) {
            pending.set(ids[index]!, jobs[index]!);
            pendingTrials += jobs[index]!.length;
          }
          await enqueue(jobs);
          await readBack(ids);
        }
      };
      const failing = (error: unknown): void => end(error instanceof Error ? error : new Error(String(error)));
      const topUp = (): void => {
        if (filling) return;
        filling = true;
        adding = adding
          .then(fill)
          .catch(failing)
          .finally(() => {
            filling = false;
          });
      };
      // Pending jobs Redis no longer has (trimmed, or lost by a Redis restarted without persistence) are
      // queued again; finished ones give their results (a result that comes twice counts once).
      const recover = async (ids: readonly string[], why: string): Promise<void> => {
        const lost: (readonly TrialTask[])[] = [];
        await forEachInBatches(ids, async (id) => {
          const job = await queue.getJob(id);
          const trials = pending.get(id);
          if (job === undefined) {
            if (trials !== undefined) lost.push(trials);
          } else if (job.finishedOn !== undefined) await giveBack(job, id);
        });
        if (lost.length === 0 || ended) return;
        const count = lost.reduce((sum, job) => sum + job.length, 0);
        options.onNotice?.(`queueing again ${count} trial${count === 1 ? '' : 's'} ${why}`);
        await enqueue(lost);
        await readBack(lost.map((job) => jobId(run, job)));
      };
      // A Redis that came back without its data (restarted without persistence) lost the trials queued on it.
      const onReconnected = (): void => {
        adding = adding.then(() => recover([...pending.keys()], 'Redis lost')).catch(failing);
      };
      const onCompleted = ({ jobId: id, returnvalue }: { jobId: string; returnvalue: unknown }): void => {
        const result = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as TrialJobResult | null | undefined;
        const job = pending.get(id);
        if (job === undefined || result === null || result === undefined) return;
        if (!Array.isArray(result.outcomes) || result.outcomes.length !== job.length) {
          end(new Error(`a worker returned no outcomes for a job of ${job.length} trials: is every trader worker this version?`));
          return;
        }
        pending.delete(id);
        pendingTrials -= job.length;
        sizer.observe(job.length, result.ms);
        if (waiting) {
          waiting = false;
          options.onNotice?.('a worker has taken the trials: they are running');
        }
        // The same trial may have run for another plan (another number): it counts as this run's.
        for (let at = 0; at < job.length; at += 1) onOutcome({ ...result.outcomes[at]!, index: job[at]!.index });
        if (queued === trials.length) {
          if (pending.size === 0) end();
        } else if (pendingTrials <= window / 2) topUp();
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
        const job = pending.get(id);
        if (job === undefined) return;
        const which = job.length === 1 ? `trial ${job[0]!.index}` : `a job of ${job.length} trials (${job[0]!.index} first)`;
        end(new Error(`${which} failed on a worker: ${failedReason}`));
      };
      const onAbort = (): void => end();
      events.on('completed', onCompleted);
      events.on('failed', onFailed);
      client.on('ready', onReconnected);
      signal.addEventListener('abort', onAbort);
      topUp();
      // Said once, so a run with nobody to take its trials does not look hung (workers are Redis clients
      // BullMQ names; a Redis that refuses to list its clients says nothing here).
      queue.getWorkersCount().then(
        (count) => {
          if (count > 0 || ended) return;
          waiting = true;
          options.onNotice?.(
            `no trader worker is listening on ${shownUrl(options.url)} yet: the ${trials.length} trial${trials.length === 1 ? '' : 's'} wait on the queue until one starts (trader worker --queue ${shownUrl(options.url)}, where ${options.dataPath} can be read)`,
          );
        },
        () => undefined,
      );
      try {
        await done;
      } finally {
        // Trials not started are taken off the queue; without Redis (lost, being retried), which would not
        // answer, the queue is left as it is.
        await whileConnected(async () => {
          await adding;
          if (signal.aborted) await forEachInBatches([...pending.keys()], (id) => queue.remove(id).catch(() => 0));
        });
      }
    },
    async close() {
      if (await whileConnected(() => Promise.all([events.close(), queue.close()]))) return;
      // Closing through BullMQ would wait for a Redis that is not there: its connections are cut instead.
      givenUp = true;
      client.disconnect();
      eventsClient.disconnect();
    },
  };
}
