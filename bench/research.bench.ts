// Research throughput: sma-crossover trials per second on one ~20-year daily file (../shared/data/us-daily/
// SPY.csv when present, a generated random walk of 5,850 days otherwise), data loaded once and shared with
// the worker threads, the same trials timed on 1 and on 2 threads; scaling from 1 to 2 workers; the
// per-trial overhead of the Redis queue against the local pool (a local redis-server, one thread each side);
// the README's first optimize example as whole `trader` processes; a 10,000-trial grid on 1 and on 2
// workers (scaling over a whole long run, thread start and warm-up included) and its peak RSS; and this
// machine's own scaling of a pure arithmetic loop and of an allocating one, as a yardstick. Prints
// measured figures only. BENCH_TRIALS (default 1,200) sets the trials per throughput run, each timed after
// every thread has run 100 trials (BENCH_PAIRS pairs of runs on 1 and 2 workers, default 5, and the median
// scaling, and where a trial's CPU goes by kind of thread), and once more after 1,500; BENCH_GRID=0 skips the grid.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import type { BacktestData } from '../src/backtest/data.js';
import type { Candle } from '../src/domain/index.js';
import type { TrialExecutor } from '../src/research/executor.js';
import type { TrialPlan } from '../src/research/optimize.js';
import type { TrialSettings } from '../src/research/trial.js';
import { built, usingBuild } from './support/built.js';
import { machineScaling } from './support/machine-scaling.mjs';

// The library as `trader optimize` runs it (dist/, also in the worker threads), src/ without a build.
const { backtestData, loadBacktestData } = await built<typeof import('../src/backtest/data.js')>('backtest/data.js');
const { parseSymbol } = await built<typeof import('../src/domain/index.js')>('domain/index.js');
const { dataHash } = await built<typeof import('../src/research/data-hash.js')>('research/data-hash.js');
const { parseObjective } = await built<typeof import('../src/research/objective.js')>('research/objective.js');
const { optimize, planTrials } = await built<typeof import('../src/research/optimize.js')>('research/optimize.js');
const { parseParamSpace } = await built<typeof import('../src/research/param-space.js')>('research/param-space.js');
const { createLocalPool } = await built<typeof import('../src/research/pool/local-pool.js')>('research/pool/local-pool.js');
const { createQueueExecutor } = await built<typeof import('../src/research/queue/submitter.js')>('research/queue/submitter.js');
const { startQueueWorker } = await built<typeof import('../src/research/queue/worker.js')>('research/queue/worker.js');
const { shareData } = await built<typeof import('../src/research/shared-data.js')>('research/shared-data.js');
const { strategyHash } = await built<typeof import('../src/research/strategy-hash.js')>('research/strategy-hash.js');
const { loadStrategy } = await built<typeof import('../src/strategy/index.js')>('strategy/index.js');
const STRATEGY = new URL('../strategies/sma-crossover.ts', import.meta.url).pathname;
const smaCrossover = (await loadStrategy(STRATEGY)).definition;

const REAL = new URL('../../shared/data/us-daily/SPY.csv', import.meta.url);
const TRIALS = Number(process.env['BENCH_TRIALS'] ?? 1200);
/** Interleaved pairs of throughput runs (1 worker, then 2): this 2-core machine's runs vary by tens of percent. */
const PAIRS = Number(process.env['BENCH_PAIRS'] ?? 5);
/** Pairs of the runs timed after STEADY_WARM_UP_PER_THREAD trials a thread (each pair takes ~15 s). */
const STEADY_PAIRS = 3;
/** Rounds of the queue's overhead (local then queued, or the other way): single rounds here vary by ±1.5 ms. */
const QUEUE_ROUNDS = 5;
/** Trials each thread runs before a throughput run is timed: threads started, the trial loop's code optimised. */
const WARM_UP_PER_THREAD = 100;
/**
 * The code run once a trial (setting a run up, summing it up) reaches the optimising compiler only after
 * ~1,500 trials a thread; with two threads its compiling competes with the trials for the two cores.
 */
const STEADY_WARM_UP_PER_THREAD = 1500;
const RULES = { objective: parseObjective('sharpe'), constraints: [], minTrades: 0 };

async function loadData(): Promise<{ data: BacktestData; label: string; path: string | undefined }> {
  if (existsSync(REAL)) {
    const data = await loadBacktestData(REAL.pathname, { symbols: [parseSymbol('SPY.US')] });
    return { data, label: `../shared/data/us-daily/SPY.csv (${data.series[0]!.candles.length} daily bars)`, path: REAL.pathname };
  }
  const symbol = parseSymbol('GEN.US');
  let state = 7;
  let price = 100;
  const candles: Candle[] = [];
  for (let day = 0; candles.length < 5850; day += 1) {
    const time = Date.UTC(1998, 0, 2) + day * 86_400_000;
    if ([0, 6].includes(new Date(time).getUTCDay())) continue;
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const open = price;
    price = Math.max(1, Math.round(price * (1 + (state / 2_147_483_648 - 0.5) * 0.03) * 100) / 100);
    candles.push({
      symbol,
      period: 'day',
      time: time + 5 * 3_600_000,
      open,
      high: Math.max(open, price) + 0.1,
      low: Math.min(open, price) - 0.1,
      close: price,
      volume: 1e6,
    });
  }
  return {
    data: backtestData([{ symbol, period: 'day', source: 'generated', candles }]),
    label: 'generated random walk (5,850 days; no ../shared/data)',
    path: undefined,
  };
}

function settingsFor(data: BacktestData): TrialSettings {
  return {
    strategyFile: STRATEGY,
    symbols: [data.series[0]!.symbol],
    cash: '1000000',
    venue: { fees: { commissionRate: 0.001 } },
    riskFreeRate: 0,
    blocks: 16,
    fixed: {},
  };
}

/** `count` trials of a fast × slow grid (fast < slow), the first `count` grid positions that qualify. */
let fullPlan: TrialPlan | undefined;
function plan(settings: TrialSettings, count: number, offset = 0): TrialPlan {
  const full = (fullPlan ??= planTrials(smaCrossover as never, settings, {
    space: parseParamSpace(['fast=2:120', 'slow=3:400']),
    search: 'grid',
    seed: 1,
  }));
  if (offset + count > full.trials.length) throw new Error(`the grid has only ${full.trials.length} trials`);
  return { ...full, trials: full.trials.slice(offset, offset + count) };
}

/** Runs `run` on 1 and on 2 workers, 1 first in even pairs and 2 first in odd ones; returns [on 1, on 2]. */
async function inTurn<T>(pair: number, run: (workers: number) => Promise<T>): Promise<[T, T]> {
  if (pair % 2 === 0) {
    const one = await run(1);
    return [one, await run(2)];
  }
  const two = await run(2);
  return [await run(1), two];
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

async function timed(executor: TrialExecutor, trials: TrialPlan): Promise<number> {
  const start = performance.now();
  await optimize({ plan: trials, rules: RULES, executor });
  return performance.now() - start;
}

/** One throughput run: trials a second, and the CPU time a trial took by kind of thread (NaN without /proc). */
interface Throughput {
  readonly rate: number;
  /** CPU per trial of the pool's threads, which run the trials. */
  readonly trialThreads: number;
  /** CPU per trial of this thread, which hands the trials out and gathers their results. */
  readonly submitting: number;
  /** CPU per trial of the process's other threads: V8's helpers (its optimizing compiler, the collector's tasks). */
  readonly helpers: number;
}

async function throughput(
  data: BacktestData,
  settings: TrialSettings,
  workers: number,
  round: number,
  warmUp = WARM_UP_PER_THREAD,
): Promise<Throughput> {
  // The threads that appear with the pool are its worker threads.
  const before = new Set(threadCpu().keys());
  const pool = createLocalPool({ workers, settings, data: shareData(data, dataHash(data)) });
  try {
    await timed(pool, plan(settings, workers * warmUp, 30_000));
    const start = threadCpu();
    const ms = await timed(pool, plan(settings, TRIALS, round * TRIALS));
    const run = { rate: (TRIALS / ms) * 1000, trialThreads: 0, submitting: 0, helpers: 0 };
    if (start.size === 0) return { ...run, trialThreads: Number.NaN, submitting: Number.NaN, helpers: Number.NaN };
    for (const [thread, cpu] of threadCpu()) {
      const spent = (cpu - (start.get(thread) ?? 0)) / TRIALS;
      if (thread === String(process.pid)) run.submitting += spent;
      else if (before.has(thread)) run.helpers += spent;
      else run.trialThreads += spent;
    }
    return run;
  } finally {
    await pool.close();
  }
}

/** CPU time in ms of each thread of this process so far (Linux: /proc/self/task/ID/schedstat); empty elsewhere. */
function threadCpu(): Map<string, number> {
  const cpu = new Map<string, number>();
  try {
    for (const thread of readdirSync('/proc/self/task')) {
      try {
        cpu.set(thread, Number(readFileSync(`/proc/self/task/${thread}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    return new Map();
  }
  return cpu;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

async function queueOverhead(data: BacktestData, settings: TrialSettings, path: string): Promise<void> {
  if (!existsSync('/usr/bin/redis-server')) return void console.log('queue overhead: skipped (no /usr/bin/redis-server)');
  const port = await freePort();
  const redis = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve) => redis.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Ready') && resolve()));
  const url = `redis://127.0.0.1:${port}/0`;
  const hash = dataHash(data);
  const worker = await startQueueWorker({ url, threads: 1, dataPath: path });
  const queue = await createQueueExecutor({
    url,
    settings,
    dataHash: hash,
    strategyHash: await strategyHash(settings.strategyFile),
    dataPath: path,
  });
  const pool = createLocalPool({ workers: 1, settings, data: shareData(data, hash) });
  const count = 200;
  try {
    await timed(queue, plan(settings, 20, 30_500));
    await timed(pool, plan(settings, 20, 30_500));
    const overheads: string[] = [];
    const perTrial: number[] = [];
    for (let round = 0; round < QUEUE_ROUNDS; round += 1) {
      const trials = plan(settings, count, 31_000 + round * count);
      // Each round in the other order than the one before, as the throughput pairs.
      const [local, queued] = await inTurn(round, (which) => timed(which === 1 ? pool : queue, trials));
      perTrial.push((queued - local) / count);
      overheads.push(
        `${((queued - local) / count).toFixed(2)} ms (local ${(local / count).toFixed(2)}, queued ${(queued / count).toFixed(2)} ms/trial)`,
      );
    }
    console.log(
      `queue overhead per trial, 1 worker thread each side, ${count} trials, local and queued interleaved: ${overheads.join('; ')}; median ${median(perTrial).toFixed(2)} ms`,
    );
  } finally {
    await queue.close();
    await worker.close();
    await pool.close();
    redis.kill('SIGTERM');
  }
}

/**
 * The README's first optimize example as a user runs it (`trader optimize`, the launcher, process start to
 * exit, the JSON written): as it runs by default (its 50 trials in the command's own thread) and with
 * --workers 2, interleaved, median of 5 each.
 */
function readmeExample(): void {
  const trader = fileURLToPath(new URL('../bin/trader.js', import.meta.url));
  const json = join(tmpdir(), `bench-optimize-${process.pid}.json`);
  const args = ['optimize', 'strategies/sma-crossover.ts', '--param', 'fast=5:30:5', '--param', 'slow=20:100:10', '--json', json];
  const times: Record<'default' | 'two', number[]> = { default: [], two: [] };
  for (let round = 0; round < 5; round += 1)
    for (const [name, extra] of [
      ['default', []],
      ['two', ['--workers', '2']],
    ] as const) {
      const start = performance.now();
      const run = spawnSync(trader, [...args, ...extra], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: 'ignore' });
      if (run.status !== 0) throw new Error(`trader ${[...args, ...extra].join(' ')} exited ${run.status}`);
      times[name].push(performance.now() - start);
    }
  rmSync(json, { force: true });
  console.log(
    `README example (trader optimize, 50 trials over the 20-year file, process start to exit, median of 5): ${median(times.default).toFixed(0)} ms by default (this thread), ${median(times.two).toFixed(0)} ms with --workers 2`,
  );
}

/** A 10,000-trial grid on 1 and on 2 workers, each on a fresh pool (thread start, warm-up and PBO included). */
async function grid(data: BacktestData, settings: TrialSettings): Promise<void> {
  if (process.env['BENCH_GRID'] === '0') return;
  const trials = plan(settings, 10_000);
  const rates: number[] = [];
  for (const workers of [1, 2]) {
    const pool = createLocalPool({ workers, settings, data: shareData(data, dataHash(data)) });
    const start = performance.now();
    try {
      const result = await optimize({ plan: trials, rules: RULES, executor: pool });
      const seconds = (performance.now() - start) / 1000;
      rates.push(result.outcomes.length / seconds);
      console.log(
        `10,000-trial grid on ${workers} worker${workers === 1 ? '' : 's'}: ${result.outcomes.length} trials in ${seconds.toFixed(1)} s (${rates.at(-1)!.toFixed(0)}/s), PBO over all of them ${result.overfitting.pbo?.probability.toFixed(3)}; peak RSS of the process so far (main + worker threads) ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
      );
    } finally {
      await pool.close();
    }
  }
  console.log(`scaling 1 → 2 workers over the whole grid: ${(rates[1]! / rates[0]!).toFixed(2)}×`);
}

export default async function main(): Promise<void> {
  const { data, label, path } = await loadData();
  const settings = settingsFor(data);
  console.log(
    `data: ${label}; sma-crossover, commission 0.001; ${TRIALS} trials per throughput run, timed after ${WARM_UP_PER_THREAD} trials per thread; code: ${usingBuild ? 'dist/ (as trader runs it)' : 'src/ through tsx (no build)'}`,
  );
  const pairs: [Throughput, Throughput][] = [];
  // Each pair in the other order than the one before (1, 2; 2, 1; …), so a machine speeding up or slowing
  // down during the bench favours neither.
  for (let round = 0; round < PAIRS; round += 1) pairs.push(await inTurn(round, (workers) => throughput(data, settings, workers, round)));
  const one = pairs.map(([run]) => run.rate);
  const two = pairs.map(([, run]) => run.rate);
  const format = (values: number[]): string => values.map((value) => value.toFixed(0)).join(', ');
  const scalings = two.map((value, index) => value / one[index]!);
  console.log(
    `1 worker: ${format(one)} backtests/s; 2 workers: ${format(two)} backtests/s (${PAIRS} pairs, each run in the other order than the pair before)`,
  );
  console.log(
    `scaling 1 → 2 workers per pair: ${scalings.map((value) => value.toFixed(2)).join(', ')}×; median ${median(scalings).toFixed(2)}× (throughput medians ${median(one).toFixed(0)} → ${median(two).toFixed(0)} backtests/s)`,
  );
  // Where a trial's CPU goes on 1 and on 2 workers. With one worker, V8's helper threads and the submitting
  // thread run on the core the trials leave free; with two they take it from the trials: the scaling can be
  // at most 2 ÷ (1 + their share on one worker), less whatever a trial costs more beside another.
  const split = (at: 0 | 1): string => {
    const part = (pick: (run: Throughput) => number): number => median(pairs.map((pair) => pick(pair[at])));
    return `trial threads ${part((run) => run.trialThreads).toFixed(2)}, V8's helper threads ${part((run) => run.helpers).toFixed(2)}, the submitting thread ${part((run) => run.submitting).toFixed(2)} ms`;
  };
  const shares = pairs.map(([single]) => (single.helpers + single.submitting) / single.trialThreads);
  if (!Number.isNaN(median(shares)))
    console.log(
      `CPU per trial (medians of the pairs): 1 worker ${split(0)}; 2 workers ${split(1)}; on 1 worker the other threads add ${(median(shares) * 100).toFixed(0)} % beside the trials' own CPU, so the scaling is at most ${(2 / (1 + median(shares))).toFixed(2)}×`,
    );
  const steady: number[] = [];
  for (let pair = 0; pair < STEADY_PAIRS; pair += 1) {
    const [steadyOne, steadyTwo] = (
      await inTurn(pair, (workers) => throughput(data, settings, workers, PAIRS + pair, STEADY_WARM_UP_PER_THREAD))
    ).map((run) => run.rate) as [number, number];
    steady.push(steadyTwo / steadyOne);
    console.log(
      `after ${STEADY_WARM_UP_PER_THREAD} trials per thread (the code run once a trial compiled too): 1 worker ${steadyOne.toFixed(0)}, 2 workers ${steadyTwo.toFixed(0)} backtests/s, scaling ${(steadyTwo / steadyOne).toFixed(2)}×`,
    );
  }
  console.log(
    `scaling after ${STEADY_WARM_UP_PER_THREAD} trials per thread, median of ${STEADY_PAIRS} pairs: ${median(steady).toFixed(2)}×`,
  );
  const machine = await machineScaling();
  const show = (values: readonly number[]): string =>
    `${values.map((value) => value.toFixed(2)).join(', ')}× (median ${median(values).toFixed(2)}×)`;
  console.log(
    `this machine's own 1 → 2 thread scaling, for reference (bench/support/machine-scaling.mjs): a pure arithmetic loop ${show(machine.arithmetic)}; a loop making short-lived objects at about a trial's rate ${show(machine.allocating)}`,
  );
  readmeExample();
  if (path !== undefined) await queueOverhead(data, settings, path);
  else console.log('queue overhead: skipped (the worker loads the data from a file; no ../shared/data)');
  await grid(data, settings);
}
