// `trader worker --queue redis://…`: runs queued optimize and walk-forward trials on this machine's cores
// until stopped (Ctrl-C finishes the trials in hand; a killed worker's trials are retried elsewhere).
import { existsSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { systemClock } from '../../clock/system-clock.js';
import type { Clock } from '../../domain/clock.js';
import { InvalidInputError } from '../../domain/errors.js';
import { defaultWorkers } from '../../research/pool/local-pool.js';
import { shownUrl } from '../../research/queue/connection.js';
import { startQueueWorker } from '../../research/queue/worker.js';
import { type WorkerEvent, workerReporter } from './worker-report.js';

export interface WorkerArgs {
  readonly queue: string;
  readonly workers?: number;
  readonly data?: string;
  readonly 'lock-ms': number;
  readonly json?: boolean;
}

export const workerCommand: CommandModule<object, WorkerArgs> = {
  command: 'worker',
  describe: 'Run queued research trials (trader optimize/walkforward --queue) on this machine until stopped',
  builder: (yargs) =>
    yargs
      .option('queue', { type: 'string', demandOption: true, describe: 'Redis of the queue, e.g. redis://10.0.0.5:6379/0' })
      .option('workers', { type: 'number', describe: 'Worker threads (default: the number of cores)' })
      .option('data', {
        type: 'string',
        describe: "Where this machine has the data, when not at the submitter's path (its content hash must match)",
      })
      .option('lock-ms', {
        type: 'number',
        default: 30_000,
        describe: 'A trial whose worker stops answering this long is given to another worker',
      })
      .example(
        '$0 worker --queue redis://10.0.0.5:6379/0',
        'From the project folder, with the same strategy and data files as the submitter',
      )
      .example('$0 worker --queue redis://10.0.0.5:6379/0 --data /mnt/history/SPY.US.csv --workers 8', 'Data elsewhere on this machine')
      .example('$0 worker --queue redis://10.0.0.5:6379/0 --json', 'What it reports also as JSON lines on stdout ({"type":"ready",…})'),
  handler: async (args) => {
    const { threads, lockMs } = await workerSettings(args);
    let trials = 0;
    const report = workerReporter(args.json === true);
    const errors = errorTeller(report);
    const tally = trialTally(systemClock, report);
    const worker = await startQueueWorker({
      url: args.queue,
      threads,
      lockMs,
      ...(args.data === undefined ? {} : { dataPath: args.data }),
      onTrial: () => {
        trials += 1;
        errors.trialRan();
        tally.ran();
      },
      onError: (error) => errors.tell(error),
      // Said here too: whoever runs this worker must learn that its data or files are not the submitter's.
      onJobFailed: (error) => errors.tell(new Error(`a job failed on this worker: ${error.message}`)),
    });
    // Listening before it says it is ready: a script may stop it as soon as it reads that.
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    report({ type: 'ready', threads, queue: shownUrl(args.queue) });
    await stopped;
    await worker.close();
    report({ type: 'stopped', trials });
  },
};

/** The flags checked before the worker connects: a mistake is told at once, not when the first trial comes. */
export async function workerSettings(args: WorkerArgs): Promise<{ threads: number; lockMs: number }> {
  const threads = args.workers ?? defaultWorkers();
  if (!Number.isSafeInteger(threads) || threads < 1)
    throw new InvalidInputError(`--workers: a whole number ≥ 1, got ${threads}`, '--workers');
  const lockMs = args['lock-ms'];
  // Shorter, and a busy machine's jobs would be taken from it as stalled while they still run.
  if (!Number.isSafeInteger(lockMs) || lockMs < 1000)
    throw new InvalidInputError(`--lock-ms: a whole number of milliseconds ≥ 1000, got ${String(lockMs)}`, '--lock-ms');
  if (args.data !== undefined && !existsSync(args.data)) throw new InvalidInputError(`--data: ${args.data} does not exist`, '--data');
  return { threads, lockMs };
}

/**
 * A line now and then while trials run (an operator watching a worker's log sees it working): the count so far
 * and since the last line, at most one per `everyMs`, and none while the queue is idle.
 */
export function trialTally(clock: Clock, report: (event: WorkerEvent) => void, everyMs = 30_000): { ran(): void } {
  let total = 0;
  let sinceLine = 0;
  let lastLineMs = Number.NaN;
  return {
    ran() {
      total += 1;
      sinceLine += 1;
      const now = clock.now();
      if (Number.isNaN(lastLineMs)) lastLineMs = now;
      if (now - lastLineMs < everyMs) return;
      report({ type: 'trials', total, recent: sinceLine, seconds: Math.round((now - lastLineMs) / 1000) });
      lastLineMs = now;
      sinceLine = 0;
    },
  };
}

/** The client retries a lost Redis every second or so: the same error is told once, until a trial runs again. */
export function errorTeller(report: (event: WorkerEvent) => void): { tell(error: Error): void; trialRan(): void } {
  let told = '';
  return {
    tell(error) {
      // Only a connection's errors are retried by the client; others (a job Redis lost) are told as they are.
      const code = (error as Error & { code?: unknown }).code;
      const retried = typeof code === 'string' && /^E[A-Z]+$/.test(code);
      const message = plainMessage(error.message);
      if (message !== told) report({ type: 'error', message, retrying: retried });
      told = message;
    },
    trialRan() {
      told = '';
    },
  };
}

/**
 * BullMQ's words for a finished job it could not file, which name each job (one line per job otherwise), in
 * words that say what happened; other messages as they are.
 */
function plainMessage(message: string): string {
  if (/^Missing key for job \S+ \w+$/.test(message))
    return 'a job this worker ran is no longer in Redis (Redis restarted without its data, or the run was stopped): its result is dropped';
  if (/^Missing lock for job \S+ \w+$/.test(message))
    return 'a job this worker ran lost its lock (it ran out: this machine too busy or --lock-ms too short; or Redis restarted without its data), so another worker may run it: its result is dropped';
  return message;
}
