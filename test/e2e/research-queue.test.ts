// Trials over BullMQ on a real redis-server: `trader worker` processes take them, one is killed (SIGKILL)
// while it runs trials, its trials are retried by the other, each trial is counted once, and the results
// equal those of the same trials run in this process; a run submitted again reads finished trials back;
// another space or window is not mistaken for earlier trials; runs sharing the queue don't break each other.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue, Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBacktestData } from '../../src/backtest/data.js';
import { dataHash } from '../../src/research/data-hash.js';
import type { TrialExecutor } from '../../src/research/executor.js';
import { createInProcessExecutor } from '../../src/research/in-process.js';
import { parseObjective } from '../../src/research/objective.js';
import { optimize, planTrials } from '../../src/research/optimize.js';
import { rankedOutcomes } from '../../src/research/ranking.js';
import { parseParamSpace } from '../../src/research/param-space.js';
import { QUEUE_NAME, queueConnection } from '../../src/research/queue/connection.js';
import type { TrialJob, TrialJobResult } from '../../src/research/queue/job.js';
import { PROBE_TRIALS } from '../../src/research/queue/job-size.js';
import { createQueueExecutor, type QueueExecutorOptions } from '../../src/research/queue/submitter.js';
import type { TrialOutcome, TrialSettings } from '../../src/research/trial.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { reapWhenTestEnds } from '../support/child-reaper.js';
import { freePort, startRedis, type RedisServer } from '../support/redis-server.js';
import { wavingDays } from '../support/run/candles.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/trader.js');
let redis: RedisServer | undefined;
let folder: string | undefined;

afterEach(async () => {
  await redis?.stop();
  redis = undefined;
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

function startWorker(url: string, ...extra: string[]): ReturnType<typeof startWorkerIn> {
  return startWorkerIn(ROOT, url, ...extra);
}

/** A `trader worker` whose working folder is `cwd` (where it opens the submitter's relative paths). */
function startWorkerIn(
  cwd: string,
  url: string,
  ...extra: string[]
): { kill(): void; stop(): Promise<void>; readonly stderr: string; readonly stdout: string } {
  const child = spawn(process.execPath, [BIN, 'worker', '--queue', url, '--workers', '1', '--lock-ms', '1500', ...extra], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapWhenTestEnds(child);
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const stopped = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    kill: () => child.kill('SIGKILL'),
    stop: () => (child.kill('SIGKILL'), stopped),
    get stderr() {
      return stderr;
    },
    get stdout() {
      return stdout;
    },
  };
}

/**
 * Runs `body` while a `trader worker` (with `workerArgs`) serves the queue; then closes `executors` and stops
 * the worker, whatever happened.
 */
async function withWorker<T>(
  executors: readonly { close(): Promise<void> }[],
  workerArgs: readonly string[],
  body: (worker: ReturnType<typeof startWorker>) => Promise<T>,
): Promise<T> {
  const worker = startWorker(redis!.url, ...workerArgs);
  try {
    return await body(worker);
  } finally {
    for (const executor of executors) await executor.close();
    await worker.stop();
  }
}

describe('trials over the Redis queue', () => {
  it('survive a worker killed mid-run: retried elsewhere, counted once, equal to the local results', async () => {
    const { submit, plan, rules, expected } = await setUp();
    const executor = await submit();
    const first = startWorker(redis!.url);
    const seen: number[] = [];
    let second: ReturnType<typeof startWorker> | undefined;
    try {
      const result = await optimize({
        plan,
        rules,
        executor,
        onOutcome: (outcome: TrialOutcome) => {
          seen.push(outcome.index);
          // Killed while it holds trials in hand; the second worker takes over its locked jobs once their lock expires.
          if (seen.length === 5) {
            first.kill();
            second = startWorker(redis!.url);
          }
        },
      });
      expect(second).toBeDefined();
      expect([...result.outcomes]).toEqual([...expected.outcomes]);
      expect(rankedOutcomes(result.outcomes, result.ranking).map((outcome) => outcome.index)).toEqual(
        rankedOutcomes(expected.outcomes, expected.ranking).map((outcome) => outcome.index),
      );
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toHaveLength(plan.trials.length);
    } finally {
      await executor.close();
      first.kill();
      second?.kill();
    }
  }, 240_000);

  it('give a run submitted again after its trials finished their results from Redis, with no worker running', async () => {
    const { submit, plan, rules, expected } = await setUp();
    const first = await submit();
    await withWorker([first], [], async () => {
      expect([...(await optimize({ plan, rules, executor: first })).outcomes]).toEqual([...expected.outcomes]);
    });
    const again = await submit();
    try {
      const result = await optimize({ plan, rules, executor: again });
      expect([...result.outcomes]).toEqual([...expected.outcomes]);
      expect(result.interrupted).toBe(false);
    } finally {
      await again.close();
    }
  }, 240_000);
});

describe('a run submitted with no worker listening', () => {
  it('says the trials wait for a trader worker, then that one took them, and ends with the local results', async () => {
    const { submitWith, csv, plan, rules, expected } = await setUp();
    const notices: string[] = [];
    let worker: ReturnType<typeof startWorker> | undefined;
    const executor = await submitWith({
      onNotice: (message) => {
        notices.push(message);
        // Started only once told: the notice is what a user waiting on the run sees.
        if (message.startsWith('no trader worker')) worker = startWorker(redis!.url);
      },
    });
    try {
      const result = await optimize({ plan, rules, executor });
      expect([...result.outcomes]).toEqual([...expected.outcomes]);
      expect(notices).toEqual([
        `no trader worker is listening on ${redis!.url} yet: the ${plan.trials.length} trials wait on the queue until one starts (trader worker --queue ${redis!.url}, where ${relative(ROOT, csv)} can be read)`,
        'a worker has taken the trials: they are running',
      ]);
    } finally {
      await executor.close();
      await worker?.stop();
    }
  }, 240_000);
});

describe('a job whose completed event never reached the submitter', () => {
  it('is read back from Redis once it has been pending a while, and the run ends with the local results', async () => {
    const { submitWith, settings, plan, rules, here, expected } = await setUp();
    const executor = await submitWith({
      stallMs: 300,
    });
    const queue = new Queue<TrialJob, TrialJobResult>(QUEUE_NAME, { connection: queueConnection(redis!.url) });
    const client = await queue.client;
    // What BullMQ does to finish a job, without the event it adds to the stream.
    client.defineCommand('finishQuietly', {
      numberOfKeys: 3,
      lua: `redis.call('LREM', KEYS[1], 0, ARGV[1]); redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]);
        redis.call('HSET', KEYS[3], 'returnvalue', ARGV[3], 'processedOn', ARGV[2], 'finishedOn', ARGV[2])`,
    });
    let worker: ReturnType<typeof startWorker> | undefined;
    try {
      const running = optimize({ plan, rules, executor });
      // No worker: the first jobs wait. They are finished here as a worker would, but with no event, as if
      // the stream had been trimmed before the submitter read it.
      await expect.poll(() => queue.getWaitingCount(), { timeout: 20_000 }).toBe(PROBE_TRIALS);
      for (const job of await queue.getWaiting()) {
        const outcomes: TrialOutcome[] = [];
        await here(settings).run(job.data.trials, (outcome) => outcomes.push(outcome), new AbortController().signal);
        const now = Date.now();
        const keys = [`bull:${QUEUE_NAME}:wait`, `bull:${QUEUE_NAME}:completed`, `bull:${QUEUE_NAME}:${job.id}`];
        await client.runCommand('finishQuietly', [...keys, job.id!, now, JSON.stringify({ outcomes, ms: 1 })]);
      }
      // Only the results read back let the run size and queue the rest, which a worker then runs.
      await expect.poll(() => queue.getWaitingCount(), { timeout: 20_000 }).toBeGreaterThan(0);
      worker = startWorker(redis!.url);
      expect([...(await running).outcomes]).toEqual([...expected.outcomes]);
    } finally {
      await queue.close();
      await executor.close();
      await worker?.stop();
    }
  }, 120_000);
});

describe('a job Redis no longer has before its result was read', () => {
  it('is queued again once it has been pending a while, and the run ends with the local results instead of waiting forever', async () => {
    const { submitWith, plan, rules, expected } = await setUp();
    const notices: string[] = [];
    const executor = await submitWith({
      stallMs: 300,
      onNotice: (notice) => notices.push(notice),
    });
    const queue = new Queue<TrialJob, TrialJobResult>(QUEUE_NAME, { connection: queueConnection(redis!.url) });
    let worker: ReturnType<typeof startWorker> | undefined;
    try {
      const running = optimize({ plan, rules, executor });
      // No worker yet: the first jobs wait. One vanishes, as a finished job trimmed (with its result) from
      // the ones Redis keeps does when its event was missed; a worker then runs the others and the rest.
      await expect.poll(() => queue.getWaitingCount(), { timeout: 20_000 }).toBe(PROBE_TRIALS);
      const [gone] = await queue.getWaiting(0, 0);
      await gone!.remove();
      worker = startWorker(redis!.url);
      expect([...(await running).outcomes]).toEqual([...expected.outcomes]);
      expect(notices).toContain('queueing again 1 trial whose results Redis dropped');
    } finally {
      await queue.close();
      await executor.close();
      await worker?.stop();
    }
  }, 120_000);
});

describe('trials over the Redis queue, one after another', () => {
  it('keep apart the trials of another parameter space and of another window over the same data', async () => {
    const { data, submit, settings, rules, here } = await setUp();
    const executor = await submit();
    await withWorker([executor], [], async () => {
      // Trial 0 of this grid is another combination than trial 0 of the first test's grid.
      const other = planTrials(smaCrossover as never, settings, {
        space: parseParamSpace(['fast=3:9:3', 'slow=15:27:6']),
        search: 'grid',
        seed: 1,
      });
      const times = data.series[0]!.candles.map((candle) => candle.time);
      const middle = times[200]!;
      const windows = [
        { from: times[0]!, to: middle },
        { from: middle, to: times[times.length - 1]! + 1 },
      ];
      for (const range of [undefined, ...windows]) {
        const plan = range === undefined ? other : { ...other, trials: other.trials.map((trial) => ({ ...trial, range })) };
        const queued = await optimize({ plan, rules, executor });
        const inThisProcess = await optimize({ plan, rules, executor: here(settings) });
        expect([...queued.outcomes]).toEqual([...inThisProcess.outcomes]);
      }
    });
  }, 240_000);
});

describe('a run stopped before its trials ran', () => {
  it('takes its waiting trials off the queue', async () => {
    const { submit, plan, rules } = await setUp();
    const executor = await submit();
    const queue = new Queue(QUEUE_NAME, { connection: queueConnection(redis!.url) });
    const stop = new AbortController();
    try {
      // No worker: the first jobs wait (a trial each, until a job has told how long its trials take). Stopped
      // once they are on the queue.
      const running = optimize({ plan, rules, executor, signal: stop.signal });
      await expect.poll(() => queue.getWaitingCount(), { timeout: 20_000 }).toBe(PROBE_TRIALS);
      stop.abort();
      const result = await running;
      expect([result.interrupted, result.outcomes.length]).toEqual([true, 0]);
      expect(await queue.getWaitingCount()).toBe(0);
    } finally {
      await queue.close();
      await executor.close();
    }
  }, 60_000);
});

describe('a grid bigger than the queue window', () => {
  it('holds at most a window of unfinished trials in Redis, several to a job once a job told its time, and keeps only the newest finished ones; submitted again, runs just the others', async () => {
    const { data, settings, plan, rules, expected, here } = await setUp();
    const connection = queueConnection(redis!.url);
    const queue = new Queue(QUEUE_NAME, { connection });
    // A worker of this test's own: before each job it counts the trials of the queue's unfinished jobs, then
    // runs the job's trials here.
    const unfinished: number[] = [];
    const sizes: number[] = [];
    let ran = 0;
    const local = here(settings);
    const worker = new Worker<TrialJob, TrialJobResult>(
      QUEUE_NAME,
      async (job) => {
        const jobs = await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
        unfinished.push(jobs.reduce((sum, queued) => sum + (queued?.data.trials.length ?? 0), 0));
        sizes.push(job.data.trials.length);
        const start = performance.now();
        const outcomes: TrialOutcome[] = [];
        await local.run(job.data.trials, (result) => outcomes.push(result), new AbortController().signal);
        ran += outcomes.length;
        return { outcomes, ms: performance.now() - start };
      },
      { connection, concurrency: 2 },
    );
    const keptTrials = async (): Promise<number> =>
      (await queue.getJobs(['completed'])).reduce((sum, kept) => sum + (kept?.data.trials.length ?? 0), 0);
    const submit = () =>
      createQueueExecutor({
        url: redis!.url,
        settings,
        dataHash: dataHash(data),
        strategyHash: 'sha256:unused',
        dataPath: 'unused.csv',
        window: 8,
        keepFinished: 10,
      });
    try {
      const first = await submit();
      try {
        expect([...(await optimize({ plan, rules, executor: first })).outcomes]).toEqual([...expected.outcomes]);
      } finally {
        await first.close();
      }
      expect(ran).toBe(plan.trials.length);
      expect(Math.max(...unfinished)).toBeLessThanOrEqual(8);
      // A trial a job until the first jobs told their time (a window's worth of them), then several.
      expect(sizes.slice(0, 8)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
      expect(Math.max(...sizes)).toBeGreaterThan(1);
      // Trimmed by jobs, each job keeping about ten trials' worth.
      const kept = await keptTrials();
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThanOrEqual(20);
      // The trials kept are read back; the others run again.
      ran = 0;
      const again = await submit();
      try {
        expect([...(await optimize({ plan, rules, executor: again })).outcomes]).toEqual([...expected.outcomes]);
      } finally {
        await again.close();
      }
      expect(ran).toBe(plan.trials.length - kept);
    } finally {
      await worker.close();
      await queue.close();
    }
  }, 120_000);
});

describe('a Redis that loses its data midway', () => {
  it('has the trials it lost queued again, and the run ends with the local results', async () => {
    const { submitWith, plan, rules, expected } = await setUp();
    const notices: string[] = [];
    const executor = await submitWith({
      onNotice: (message) => notices.push(message),
    });
    const worker = startWorker(redis!.url);
    let seen = 0;
    let restarted: Promise<void> | undefined;
    try {
      const result = await optimize({
        plan,
        rules,
        executor,
        onOutcome: () => {
          seen += 1;
          // Stopped without saving and started again on its port: every queued trial and event is gone.
          if (seen === 5)
            restarted = (async () => {
              const { port } = redis!;
              await redis!.stop();
              redis = await startRedis(port);
            })();
        },
      });
      await restarted;
      expect(restarted).toBeDefined();
      expect([...result.outcomes]).toEqual([...expected.outcomes]);
      expect(result.interrupted).toBe(false);
      // The user is told the connection went, came back, and how many trials went with the data (besides,
      // perhaps, that no worker listened yet when the run began: the worker process may still be starting).
      const redisNotices = notices.filter((notice) => !/^no trader worker|^a worker has taken/.test(notice));
      expect(redisNotices[0]).toMatch(new RegExp(`^lost Redis at ${redis!.url}( \\(.+\\))?; retrying$`));
      expect(redisNotices[1]).toBe(`Redis at ${redis!.url} is back`);
      expect(redisNotices[2]).toMatch(/^queueing again \d+ trials? Redis lost$/);
      expect(redisNotices).toHaveLength(3);
    } finally {
      await executor.close();
      worker.kill();
    }
  }, 240_000);
});

describe('a run stopped while its Redis is away', () => {
  it('stops and closes at once, leaving the queue as it is, instead of waiting for Redis', async () => {
    const { submit, plan, rules } = await setUp();
    const executor = await submit();
    const stop = new AbortController();
    const queue = new Queue(QUEUE_NAME, { connection: queueConnection(redis!.url) });
    // No worker: the first jobs wait on the queue; then Redis goes away and the run is stopped.
    const running = optimize({ plan, rules, executor, signal: stop.signal });
    await expect.poll(() => queue.getWaitingCount(), { timeout: 20_000 }).toBe(PROBE_TRIALS);
    await queue.close();
    await redis!.stop();
    stop.abort();
    const result = await running;
    expect([result.interrupted, result.stopped, result.outcomes.length]).toEqual([true, true, 0]);
    await executor.close();
  }, 60_000);
});

describe('a queue whose Redis cannot be reached', () => {
  it('refuses the run at once, naming the address and the reason, and leaves nothing running', async () => {
    const url = `redis://127.0.0.1:${await freePort()}/0`;
    await expect(
      createQueueExecutor({ url, settings: {} as TrialSettings, dataHash: 'sha256:0', strategyHash: 'sha256:0', dataPath: 'data.csv' }),
    ).rejects.toThrow(`--queue ${url}: cannot reach Redis (connect ECONNREFUSED`);
    // As a command: an error line and exit status 1, not a process waiting for ever.
    const run = spawnSync(
      process.execPath,
      [BIN, 'optimize', 'strategies/sma-crossover.ts', '--param', 'fast=5:10:5', '--param', 'slow=20:30:10', '--queue', url],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect([run.status, run.signal]).toEqual([1, null]);
    expect(run.stderr.trim().split('\n')).toEqual([
      `error: --queue ${url}: cannot reach Redis (connect ECONNREFUSED 127.0.0.1:${new URL(url).port})`,
    ]);
  }, 90_000);
});

describe('a queue whose Redis refuses the connection', () => {
  // Each as a command: one error line and exit status 1, at once; not a process waiting for ever, nor a worker
  // serving database 0 in place of a database Redis lacks.
  const traderSync = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  const optimizeOn = (url: string) =>
    traderSync('optimize', 'strategies/sma-crossover.ts', '--param', 'fast=5:10:5', '--param', 'slow=20:30:10', '--queue', url);
  const workerOn = (url: string) => traderSync('worker', '--queue', url, '--workers', '1');

  it('(a database it lacks) stops the submitter and the worker, each saying why', async () => {
    redis = await startRedis();
    const url = `redis://127.0.0.1:${redis.port}/16`;
    for (const run of [optimizeOn(url), workerOn(url)]) {
      expect([run.status, run.signal]).toEqual([1, null]);
      expect(run.stderr.trim().split('\n')).toEqual([`error: --queue ${url}: Redis refused the connection (ERR DB index is out of range)`]);
    }
  }, 120_000);

  it('(a password missing or wrong) stops the submitter and the worker, each saying why without showing the password', async () => {
    redis = await startRedis(undefined, ['--requirepass', 'right-pw-1']);
    const none = `redis://127.0.0.1:${redis.port}/0`;
    const wrong = `redis://:old-pw-2@127.0.0.1:${redis.port}/0`;
    for (const [url, why] of [
      [none, `--queue ${none}: Redis refused the connection (NOAUTH Authentication required.)`],
      [
        wrong,
        `--queue redis://:***@127.0.0.1:${redis.port}/0: Redis refused the connection (WRONGPASS invalid username-password pair or user is disabled.)`,
      ],
    ] as const) {
      for (const run of [optimizeOn(url), workerOn(url)]) {
        expect([run.status, run.signal]).toEqual([1, null]);
        expect(run.stderr.trim().split('\n')).toEqual([`error: ${why}`]);
      }
    }
  }, 120_000);
});

describe('a queue whose Redis needs a password', () => {
  it('is served with the password in the URL, which no line of the worker or the submitter shows', async () => {
    const { submitWith, plan, rules, expected } = await setUp();
    await redis!.stop();
    redis = await startRedis(undefined, ['--requirepass', 'right-pw-1']);
    const url = `redis://:right-pw-1@127.0.0.1:${redis.port}/0`;
    const shown = `redis://:***@127.0.0.1:${redis.port}/0`;
    const notices: string[] = [];
    let worker: ReturnType<typeof startWorker> | undefined;
    const executor = await submitWith({
      url,
      onNotice: (message) => {
        notices.push(message);
        if (message.startsWith('no trader worker')) worker = startWorker(url, '--json');
      },
    });
    try {
      expect([...(await optimize({ plan, rules, executor })).outcomes]).toEqual([...expected.outcomes]);
      expect(notices[0]).toContain(`no trader worker is listening on ${shown} yet`);
      expect(worker!.stderr).toContain(`worker ready: 1 thread on ${shown}\n`);
      expect(worker!.stdout).toContain(`{"type":"ready","threads":1,"queue":"${shown}"}`);
      expect([...notices, worker!.stderr, worker!.stdout].join('\n')).not.toContain('right-pw-1');
    } finally {
      await executor.close();
      await worker?.stop();
    }
  }, 120_000);
});

describe('a worker with other data', () => {
  it('fails the run at once, naming both content hashes, and the run submitted again runs on a worker with the data', async () => {
    const { csv, submit, plan, rules, expected } = await setUp();
    const other = join(folder!, 'other.csv');
    writeFileSync(other, readFileSync(csv, 'utf8').split('\n').slice(0, 300).join('\n'));
    const executor = await submit();
    await withWorker([executor], ['--data', other], async (worker) => {
      await expect(optimize({ plan, rules, executor })).rejects.toThrow(/has content hash sha256:\w+, the submitter's is sha256:\w+/);
      // Whoever runs the worker is told too.
      await expect
        .poll(() => worker.stderr, { timeout: 10_000 })
        .toMatch(
          /worker: a job failed on this worker: the data at .*other\.csv on this worker has content hash sha256:\w+, the submitter's is sha256:\w+\n/,
        );
    });
    // The refused trials stay failed in Redis under the same ids: submitted again, they are queued again.
    const again = await submit();
    await withWorker([again], [], async () => {
      expect([...(await optimize({ plan, rules, executor: again })).outcomes]).toEqual([...expected.outcomes]);
    });
  }, 120_000);
});

describe("a worker whose strategy file differs from the submitter's", () => {
  it('fails the run at once, naming both content hashes, rather than running other code', async () => {
    const { csv, submit, plan, rules } = await setUp();
    // The same relative path in another checkout, where the strategy was edited.
    const checkout = join(folder!, 'checkout');
    mkdirSync(join(checkout, 'strategies'), { recursive: true });
    writeFileSync(
      join(checkout, 'strategies/sma-crossover.ts'),
      sellOnTheCrossUp(readFileSync(join(ROOT, 'strategies/sma-crossover.ts'), 'utf8')),
    );
    const executor = await submit();
    const worker = startWorkerIn(checkout, redis!.url, '--data', csv);
    try {
      await expect(optimize({ plan, rules, executor })).rejects.toThrow(
        /the strategy at .*checkout\/strategies\/sma-crossover\.ts on this worker has content hash sha256:\w+, the submitter's is sha256:\w+/,
      );
    } finally {
      await executor.close();
      await worker.stop();
    }
  }, 120_000);
});

describe('a run submitted again after its strategy or risk file was edited', () => {
  it('runs the edited files, on the worker that ran the first, and ends with the local results', async () => {
    redis = await startRedis();
    folder = mkdtempSync(join(tmpdir(), 'queue-'));
    const bars = wavingDays(400);
    writeFileSync(
      join(folder, 'AAPL.US.csv'),
      `Date,Open,High,Low,Close,Volume\n${bars.map((bar, index) => `${dateOf(index, bars)},${bar.open},${bar.high},${bar.low},${bar.close},${bar.volume}`).join('\n')}\n`,
    );
    const source = readFileSync(join(ROOT, 'strategies/sma-crossover.ts'), 'utf8');
    writeFileSync(join(folder, 'strategy.ts'), source);
    writeFileSync(join(folder, 'risk.json'), '{ "maxPositionPerSymbol": 1000 }\n');
    const flags = ['strategy.ts', '--data', 'AAPL.US.csv', '--symbols', 'AAPL.US', '--risk', 'risk.json'];
    const flagsWith = ['--param', 'fast=2:6:2', '--param', 'slow=12:30:6', '--param', 'quantity=300', '--json', '-'];
    const optimizeHere = (...extra: string[]): string => {
      const run = spawnSync(process.execPath, [BIN, 'optimize', ...flags, ...flagsWith, ...extra], {
        cwd: folder,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(0);
      return run.stdout;
    };
    const original = optimizeHere();
    const worker = startWorkerIn(folder, redis.url);
    try {
      expect(optimizeHere('--queue', redis.url)).toBe(original);
      // Edited while the worker runs: Redis still holds the first run's results, the worker its loaded strategy.
      writeFileSync(join(folder, 'strategy.ts'), sellOnTheCrossUp(source));
      const edited = optimizeHere();
      expect(optimizeHere('--queue', redis.url)).toBe(edited);
      writeFileSync(join(folder, 'risk.json'), '{ "maxPositionPerSymbol": 200 }\n');
      const limited = optimizeHere();
      expect(JSON.parse(limited).ranked).not.toEqual(JSON.parse(edited).ranked);
      expect(optimizeHere('--queue', redis.url)).toBe(limited);
    } finally {
      await worker.stop();
    }
  }, 240_000);
});

/** sma-crossover edited to trade the other way round: the same file name and params, other decisions. */
function sellOnTheCrossUp(source: string): string {
  const edited = source.replace("cross === 'up'", "cross === 'down'");
  expect(edited).not.toBe(source);
  return edited;
}

describe('trials of three runs over the Redis queue at once', () => {
  it('are each run with their own settings by one worker, none failing as it keeps two runs ready and closes a third', async () => {
    const { submit, here, settings, plan, rules } = await setUp();
    const runs: TrialSettings[] = [
      settings,
      { ...settings, cash: '50000', fixed: { quantity: '5' } },
      { ...settings, cash: '80000', fixed: { quantity: '20' } },
    ];
    const expected = await Promise.all(runs.map((trialSettings) => optimize({ plan, rules, executor: here(trialSettings) })));
    // One attempt each: a trial that fails on the worker fails its run.
    const executors = await Promise.all(runs.map((trialSettings) => submit(trialSettings, 1)));
    await withWorker(executors, [], async () => {
      const results = await Promise.all(executors.map((executor) => optimize({ plan, rules, executor })));
      expect(results.map((result) => [...result.outcomes])).toEqual(expected.map((result) => [...result.outcomes]));
      expect([...results[1]!.outcomes]).not.toEqual([...results[0]!.outcomes]);
    });
  }, 240_000);
});

/**
 * A real redis-server, a CSV of 400 days, the trial settings and plan, the outcomes of running them here, and
 * ways to run trials here or submit them to the queue.
 */
async function setUp() {
  redis = await startRedis();
  folder = mkdtempSync(join(tmpdir(), 'queue-'));
  const csv = join(folder, 'AAPL.US.csv');
  const bars = wavingDays(400);
  writeFileSync(
    csv,
    `Date,Open,High,Low,Close,Volume\n${bars.map((bar, index) => `${dateOf(index, bars)},${bar.open},${bar.high},${bar.low},${bar.close},${bar.volume}`).join('\n')}\n`,
  );
  const data = await loadBacktestData(csv);
  expect(data.series[0]!.candles.map((candle) => candle.close)).toEqual(bars.map((bar) => bar.close));
  const settings: TrialSettings = {
    strategyFile: 'strategies/sma-crossover.ts',
    symbols: ['AAPL.US'],
    cash: '100000',
    venue: {},
    riskFreeRate: 0,
    blocks: 4,
    fixed: { quantity: '10' },
  };
  const plan = planTrials(smaCrossover as never, settings, {
    space: parseParamSpace(['fast=2:10', 'slow=12:30:3']),
    search: 'grid',
    seed: 1,
  });
  const rules = { objective: parseObjective('sharpe'), constraints: [], minTrades: 0 };
  /** Trials run in this process, the reference the queue's results must equal. */
  const here = (trialSettings: TrialSettings): TrialExecutor =>
    createInProcessExecutor({ definition: smaCrossover as never, data, risk: undefined }, trialSettings);
  // As the trader binary (dist/) computes it, which the workers check: compiled from src/, the strategy's
  // imports of the runtime name other files.
  const { strategyHash } = (await import(
    new URL('../../dist/research/strategy-hash.js', import.meta.url).href
  )) as typeof import('../../src/research/strategy-hash.js');
  const strategy = await strategyHash(join(ROOT, settings.strategyFile));
  /** A queue executor for the run's data and settings, with `options` beside them. */
  const submitWith = (options: Partial<QueueExecutorOptions> = {}): Promise<TrialExecutor> =>
    createQueueExecutor({
      url: redis!.url,
      settings,
      dataHash: dataHash(data),
      strategyHash: strategy,
      dataPath: relative(ROOT, csv),
      ...options,
    });
  const submit = (trialSettings = settings, attempts = 5): Promise<TrialExecutor> => submitWith({ settings: trialSettings, attempts });
  return {
    data,
    csv,
    settings,
    plan,
    rules,
    here,
    submit,
    submitWith,
    expected: await optimize({ plan, rules, executor: here(settings) }),
  };
}

function dateOf(index: number, bars: readonly { time: number }[]): string {
  return new Date(bars[index]!.time + 12 * 3_600_000).toISOString().slice(0, 10);
}
