// Bytes allocated per fill: what the order path leaves for the collector, the lever of the walk with orders
// (bench/README.md, "What orders' garbage costs the many-symbol walk"). Each case runs in a child node made
// predictable (one thread, fixed seeds: its compiles, and so what escape analysis removes, land at the same
// points every time) with a young generation large enough that the counted runs see no collection; the
// heap's growth over them is what they allocated, the same to a few hundred bytes a run from one invocation
// to the next. Cases: the instructions bench's research trial (sma-crossover with a 0.001 commission on one
// symbol × 5,000 daily bars) and the same crossover never ordering (their difference ÷ fills is the order
// path's share); sma-every-symbol walking 50 symbols × 5,000 daily bars without fees. Needs dist/.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dailyUniverse } from './support/bench-data.js';
import { usingBuild } from './support/built.js';

const RUNS_SCRIPT = fileURLToPath(new URL('support/allocation-runs.mjs', import.meta.url));
/** MB per semi-space: the counted runs allocate up to ~150 MB and must not be interrupted by a collection. */
const SEMI_SPACE_MB = 256;
const NODE_FLAGS = [
  '--predictable',
  '--random-seed=1',
  '--hash-seed=1',
  '--expose-gc',
  `--max-semi-space-size=${SEMI_SPACE_MB}`,
  `--min-semi-space-size=${SEMI_SPACE_MB}`,
];

interface Weighed {
  readonly bytes: number;
  readonly fills: number;
  readonly runs: number;
  readonly collections: number;
}

function weigh(kind: 'trial' | 'never' | 'walk', folder: string, warm: number, count: number): Promise<Weighed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, RUNS_SCRIPT, kind, folder, String(warm), String(count)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('close', (status) => {
      if (status !== 0) reject(new Error(`allocation runs (${kind}) exited ${status}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Weighed);
    });
  });
}

function checked(label: string, weighed: Weighed): Weighed {
  if (weighed.collections > 0) console.log(`${label}: ${weighed.collections} collections while counting; the figure below undercounts`);
  return weighed;
}

export default async function main(): Promise<void> {
  if (!usingBuild) {
    console.log('skipped: weighs the build; run `node scripts/build.mjs` first');
    return;
  }
  const one = await dailyUniverse(1, 5_000);
  const fifty = await dailyUniverse(50, 5_000);
  console.log(`data: ${one.source}; node ${process.version} --predictable, ${SEMI_SPACE_MB} MB semi-spaces`);
  const trial = checked('trial', await weigh('trial', one.folder, 600, 160));
  const never = checked('never', await weigh('never', one.folder, 600, 160));
  const perTrial = trial.bytes / trial.runs;
  const fills = trial.fills / trial.runs;
  const orderPath = (trial.bytes / trial.runs - never.bytes / never.runs) / fills;
  console.log(
    `research trial, sma-crossover on 1 symbol × 5,000 daily bars: ${(perTrial / 1024).toFixed(1)} KB a trial (${fills.toFixed(1)} fills), ` +
      `${(perTrial / fills).toFixed(0)} B a fill; never ordering ${(never.bytes / never.runs / 1024).toFixed(1)} KB a trial; ` +
      `the orders ${orderPath.toFixed(0)} B a fill`,
  );
  const walk = checked('walk', await weigh('walk', fifty.folder, 2, 2));
  console.log(
    `universe walk, sma-every-symbol on 50 symbols × 5,000 daily bars: ${(walk.bytes / walk.runs / 1048576).toFixed(1)} MB a run ` +
      `(${(walk.fills / walk.runs).toFixed(0)} fills), ${(walk.bytes / walk.fills).toFixed(0)} B a fill`,
  );
}
