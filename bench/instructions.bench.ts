// Instructions per backtest, counted under valgrind with V8 made predictable (one thread, fixed seeds): a
// figure that repeats to a fraction of a percent on a machine whose wall times move by tens of percent from
// one minute to the next, for telling whether a change to the walk or the order path pays. The case runs
// twice, with A and with B trials in one process; (count of B − count of A) / (B − A) is the steady-state cost
// of one trial, start-up, loading and first compiles cancelled out. B − A is 450 trials: events that come
// once in a few hundred trials (a full collection, a late recompile) land in a shorter window or not,
// depending on the build, and moved a 150-trial figure by up to 3 %. Needs valgrind (Debian's `valgrind`) and
// dist/. Long runs with a large heap (a universe backtest) do not repeat this way: the collector's timed tasks
// depend on wall time, which valgrind stretches.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dailyUniverse } from './support/bench-data.js';
import { usingBuild } from './support/built.js';

const RUNS_SCRIPT = fileURLToPath(new URL('support/instruction-runs.mjs', import.meta.url));

interface Counted {
  readonly instructions: number;
  readonly fills: number;
  readonly bars: number;
}

function counted(folder: string, count: number): Promise<Counted> {
  const args = [
    '--tool=cachegrind',
    '--cache-sim=no',
    '--cachegrind-out-file=/dev/null',
    '--smc-check=all-non-file',
    process.execPath,
    '--predictable',
    '--random-seed=1',
    '--hash-seed=1',
    RUNS_SCRIPT,
    folder,
    String(count),
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
        reject(new Error(`valgrind (${count} trials) exited ${status}: ${stderr.slice(-800)}`));
        return;
      }
      const { fills, bars } = JSON.parse(stdout.trim().split('\n').pop()!) as { fills: number; bars: number };
      resolve({ instructions: Number(refs[1]!.replaceAll(',', '')), fills, bars });
    });
  });
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
}
