// Instructions per backtest, counted under valgrind with V8 made predictable (one thread, fixed seeds): a
// figure that repeats to a fraction of a percent on a machine whose wall times move by tens of percent from
// one minute to the next, for telling whether a change to the walk or the order path pays. The case runs
// twice, with A and with B trials in one process; (count of B − count of A) / (B − A) is the steady-state cost
// of one trial, start-up, loading and first compiles cancelled out. B − A is 450 trials: events that come
// once in a few hundred trials (a full collection, a late recompile) land in a shorter window or not,
// depending on the build, and moved a 150-trial figure by up to 3 %. Needs valgrind (Debian's `valgrind`) and
// dist/. Long runs with a large heap (a universe backtest) do not repeat this way: the collector's timed tasks
// depend on wall time, which valgrind stretches. A whole process of 100,000 minute bars repeats to within
// 0.3 % (runs of one build), and counts what a user's run costs from start to result: start-up, loading, walk and write.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dailyUniverse, minuteSeries } from './support/bench-data.js';
import { usingBuild } from './support/built.js';

const RUNS_SCRIPT = fileURLToPath(new URL('support/instruction-runs.mjs', import.meta.url));
const TRADER = fileURLToPath(new URL('../bin/trader.js', import.meta.url));
const EVERY_SYMBOL = fileURLToPath(new URL('support/sma-every-symbol.ts', import.meta.url));

interface Counted {
  readonly instructions: number;
  readonly fills: number;
  readonly bars: number;
}

const NODE_FLAGS = ['--predictable', '--random-seed=1', '--hash-seed=1'];

/** Instructions of one node process under valgrind, and what it printed on stdout. */
function underValgrind(nodeArgs: readonly string[], what: string): Promise<{ instructions: number; stdout: string }> {
  const args = [
    '--tool=cachegrind',
    '--cache-sim=no',
    '--cachegrind-out-file=/dev/null',
    '--smc-check=all-non-file',
    process.execPath,
    ...NODE_FLAGS,
    ...nodeArgs,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (status) => {
      const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
      if (status !== 0 || refs === null) {
        reject(new Error(`valgrind (${what}) exited ${status}: ${stderr.slice(-800)}`));
        return;
      }
      resolve({ instructions: Number(refs[1]!.replaceAll(',', '')), stdout });
    });
  });
}

async function counted(folder: string, count: number): Promise<Counted> {
  const { instructions, stdout } = await underValgrind([RUNS_SCRIPT, folder, String(count)], `${count} trials`);
  const { fills, bars } = JSON.parse(stdout.trim().split('\n').pop()!) as { fills: number; bars: number };
  return { instructions, fills, bars };
}

async function steadyState(label: string, folder: string, [few, more]: readonly [number, number]): Promise<void> {
  const started = performance.now();
  const [a, b] = await Promise.all([counted(folder, few), counted(folder, more)]);
  const runs = more - few;
  const perRun = (b.instructions - a.instructions) / runs;
  const fills = (b.fills - a.fills) / runs;
  console.log(
    `${label}: ${(perRun / 1e6).toFixed(2)} M instructions a trial (${few} and ${more} trials counted: ${(a.instructions / 1e9).toFixed(3)} and ${(b.instructions / 1e9).toFixed(3)} G); ` +
      `${fills.toFixed(0)} fills and ${a.bars.toLocaleString('en-US')} bars a trial: ${(perRun / a.bars).toFixed(0)} a bar overall; ` +
      `counted in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

export default async function main(): Promise<void> {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.log('skipped: valgrind is not installed (apt-get install valgrind)');
    return;
  }
  if (!usingBuild) {
    console.log('skipped: counts the build; run `node scripts/build.mjs` first');
    return;
  }
  const one = await dailyUniverse(1, 5_000);
  console.log(`data: ${one.source}; node ${process.version} --predictable under valgrind (cachegrind, no cache simulation)`);
  await steadyState('research trial, sma-crossover on 1 symbol × 5,000 daily bars', one.folder, [150, 600]);
  await wholeProcess();
}

/**
 * A whole `trader backtest` process, start to JSON written (the plain start: a snapshot is bound to flags):
 * sma-every-symbol decided on 100,000 one-minute bars, an intent on every cross. Counted twice, after a run
 * that compiles the strategy into its cache.
 */
async function wholeProcess(): Promise<void> {
  const minutes = await minuteSeries(100_000);
  const folder = mkdtempSync(join(tmpdir(), 'instructions-'));
  try {
    const args = (run: string): string[] => [
      TRADER,
      'backtest',
      EVERY_SYMBOL,
      '--data',
      join(minutes.folder, 'MIN.US.csv'),
      '--period',
      '1m',
      '--cash',
      '100000000',
      '--json',
      join(folder, `${run}.json`),
      '--quiet',
    ];
    spawnSync(process.execPath, args('warm'), { stdio: 'ignore' });
    const started = performance.now();
    const counts = await Promise.all(['a', 'b'].map((run) => underValgrind(args(run), `trader backtest, run ${run}`)));
    const { fills } = JSON.parse(readFileSync(join(folder, 'a.json'), 'utf8')) as { fills: readonly unknown[] };
    const [a, b] = counts.map(({ instructions }) => instructions) as [number, number];
    console.log(
      `whole process, trader backtest of sma-every-symbol on ${minutes.bars.toLocaleString('en-US')} one-minute bars (${fills.length.toLocaleString('en-US')} fills), start to JSON written: ` +
        `${(a / 1e9).toFixed(3)} and ${(b / 1e9).toFixed(3)} G instructions in two runs (${(Math.min(a, b) / minutes.bars).toFixed(0)} a bar); counted in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
