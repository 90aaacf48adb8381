// Whole-process backtests, as a user runs them: `trader backtest … --json FILE --timings` (bin/trader.js as a command) in a child process,
// timed from the spawn to the process's exit, with the phases the process reports (start-up, load, walk,
// write: see src/cli/backtest/phase-timings.ts), in wall and CPU time, and its peak RSS. Cases:
//   - a daily universe, 500 symbols × 5,000 bars, a strategy trading every symbol (bench/support);
//   - 1 symbol × 1,000,000 one-minute bars, decided on 1m bars;
//   - the same minute bars from a Parquet file written by `trader data convert`;
//   - the bundled 20-year daily file with sma-crossover (the README's first command);
//   - the minute bars again from a month into them (--from), sma-crossover warmed up on the bars before.
// Each case runs RUNS times (BENCH_RUNS); printed are the medians, with the fastest and slowest totals.
// Bytes per bar: the peak RSS above the 20-year file's (5,106 bars: start-up and modules) per extra bar; and,
// from one more run under `node --expose-gc`, what the process holds (heap + array buffers after a full
// collection) once the data is loaded and once the walk is done, per input bar.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dailyUniverse, minuteSeries } from './support/bench-data.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const STRATEGY = fileURLToPath(new URL('support/sma-every-symbol.ts', import.meta.url));

interface Run {
  readonly totalMs: number;
  readonly phases: Readonly<Record<string, number>>;
  /** The same phases in CPU time (all the process's threads, GC included). */
  readonly cpu: Readonly<Record<string, number>>;
  readonly peakMb: number;
  /** MB held after each phase (heap + array buffers after a full collection), from a --expose-gc run. */
  readonly held: Readonly<Record<string, number>>;
}

interface Case {
  readonly label: string;
  readonly bars: number;
  readonly args: readonly string[];
  /** The data files or folders the run reads. */
  readonly data: readonly string[];
}

/**
 * One process. As a user runs `trader` (the launcher, which starts node from the start-up snapshot when one is
 * built for this installation), or, given node flags, node on the file (the plain start: a snapshot cannot be
 * started with flags such as --expose-gc).
 */
async function runOnce(args: readonly string[], json: string, nodeFlags: readonly string[] = []): Promise<Run> {
  const started = process.hrtime.bigint();
  const backtest = [join(ROOT, 'bin/trader.js'), 'backtest', ...args, '--json', json, '--quiet', '--timings'];
  const [command, ...commandArgs] = nodeFlags.length === 0 ? backtest : [process.execPath, ...nodeFlags, ...backtest];
  const child = spawn(command!, commandArgs, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (status !== 0) throw new Error(`trader backtest ${args.join(' ')} exited ${status}:\n${stderr}`);
  await stat(json);
  const lines = stderr.split('\n');
  const line = lines.find((text) => text.startsWith('timings:'));
  const cpuLine = lines.find((text) => text.startsWith('cpu:'));
  if (line === undefined || cpuLine === undefined) throw new Error(`no timings lines in:\n${stderr}`);
  const phasesOf = (text: string): Record<string, number> =>
    Object.fromEntries([...text.matchAll(/([a-z-]+) (\d+) ms/g)].map((match) => [match[1]!, Number(match[2])]));
  const peak = /peak RSS (\d+) MB/.exec(line);
  const heldLine = lines.find((text) => text.startsWith('held after'));
  const held =
    heldLine === undefined
      ? {}
      : Object.fromEntries([...heldLine.matchAll(/([a-z-]+) ([\d.]+) MB/g)].map((match) => [match[1]!, Number(match[2])]));
  return { totalMs, phases: phasesOf(line), cpu: phasesOf(cpuLine), peakMb: Number(peak?.[1] ?? Number.NaN), held };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * Reads the case's data files once, so a run's load phase measures reading them, not this VM's disk: the
 * kernel here reclaims cold page cache within minutes (seen: a 20 s load of files read 10 minutes before,
 * 1.6 s of it CPU), which a user re-running backtests over the same files does not meet.
 */
async function warmFiles(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const info = await stat(path);
    const files = info.isDirectory() ? (await readdir(path)).map((name) => join(path, name)) : [path];
    for (const file of files) await readFile(file);
  }
}

/** A date about a month after a candle file's first row, and how many rows start on or after it. */
async function dayAfterFirstMonth(file: string): Promise<{ readonly date: string; readonly bars: number }> {
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n').slice(1);
  const first = new Date(`${lines[0]!.slice(0, 10)}T00:00:00Z`);
  const date = new Date(first.getTime() + 31 * 86_400_000).toISOString().slice(0, 10);
  return { date, bars: lines.filter((line) => line.slice(0, 10) >= date).length };
}

async function measure(one: Case, folder: string): Promise<Run> {
  const runs: Run[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    await warmFiles(one.data);
    runs.push(await runOnce(one.args, join(folder, `result-${index}.json`)));
  }
  const totals = runs.map((run) => run.totalMs);
  const phaseNames = Object.keys(runs[0]!.phases);
  const phases = Object.fromEntries(phaseNames.map((name) => [name, median(runs.map((run) => run.phases[name]!))]));
  const cpu = Object.fromEntries(phaseNames.map((name) => [name, median(runs.map((run) => run.cpu[name]!))]));
  await warmFiles(one.data);
  const memory = await runOnce(one.args, join(folder, 'memory.json'), ['--expose-gc']);
  const result: Run = { totalMs: median(totals), phases, cpu, peakMb: median(runs.map((run) => run.peakMb)), held: memory.held };
  const rate = (ms: number): string => `${Math.round(one.bars / (ms / 1000)).toLocaleString('en-US')} bars/s`;
  console.log(
    `${one.label}: ${one.bars.toLocaleString('en-US')} bars, median of ${RUNS}: ${result.totalMs.toFixed(0)} ms process start to exit = ` +
      `${rate(result.totalMs)} end to end (fastest ${rate(Math.min(...totals))}, slowest ${rate(Math.max(...totals))})`,
  );
  console.log(
    `  phases (median ms): ${phaseNames.map((name) => `${name} ${phases[name]!.toFixed(0)}`).join(' · ')}; peak RSS ${result.peakMb} MB`,
  );
  console.log(`  CPU (median ms): ${phaseNames.map((name) => `${name} ${cpu[name]!.toFixed(0)}`).join(' · ')}`);
  const { held } = memory;
  // Per bar only where bars outweigh what any run holds (compiled code, the runtime's objects).
  if (one.bars >= 100_000 && held['start-up'] !== undefined && held.load !== undefined && held.walk !== undefined) {
    const perBar = (mb: number): string => ((mb * 1024 * 1024) / one.bars).toFixed(0);
    console.log(
      `  held (--expose-gc run, heap + array buffers after a full collection): the loaded data ${perBar(held.load - held['start-up'])} B/bar; ` +
        `after the walk, data and run with its result ${perBar(held.walk - held['start-up'])} B/bar, the run alone ${perBar(held.walk - held.load)} B/bar`,
    );
  }
  return result;
}

export default async function main(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-end-to-end-'));
  try {
    const universe = await dailyUniverse();
    const minutes = await minuteSeries();
    console.log(
      `data: daily universe from ${universe.source}; minute bars from ${minutes.source}; in ${join(tmpdir(), 'longport-trader-bench')}`,
    );
    console.log(`each case: ${RUNS} runs (BENCH_RUNS to change), \`trader backtest … --json FILE --quiet --timings\` in a child process`);
    const snapshot = spawnSync(join(ROOT, 'bin/trader.js'), ['--help'], {
      env: { ...process.env, TRADER_SNAPSHOT: 'require' },
      stdio: 'ignore',
    });
    console.log(
      `start: ${snapshot.status === 0 ? 'the start-up snapshot (bin/trader.js as a command)' : 'the plain start (no snapshot built for this installation)'}`,
    );
    const small = await measure(
      {
        label: 'the bundled 20-year daily file (sma-crossover, backtest-data/SPX.US.csv)',
        bars: 5_105,
        args: ['strategies/sma-crossover.ts'],
        data: [join(ROOT, 'backtest-data')],
      },
      folder,
    );
    const daily = await measure(
      {
        label: `daily universe, ${universe.symbols.length} symbols × ${universe.bars / universe.symbols.length} bars, sma crossover on every symbol`,
        bars: universe.bars,
        args: [STRATEGY, '--data', universe.folder, '--symbols', universe.symbols.join(','), '--cash', '100000000'],
        data: [universe.folder],
      },
      folder,
    );
    console.log(
      `  memory: ${(((daily.peakMb - small.peakMb) * 1024 * 1024) / (universe.bars - 5_105)).toFixed(0)} bytes per bar above the 20-year file's peak`,
    );
    await measure(
      {
        label: '1 symbol × 1,000,000 one-minute bars, sma crossover decided on 1m bars',
        bars: minutes.bars,
        args: [STRATEGY, '--data', join(minutes.folder, 'MIN.US.csv'), '--period', '1m', '--cash', '100000000'],
        data: [join(minutes.folder, 'MIN.US.csv')],
      },
      folder,
    );
    // The same bars as Parquet, converted by `trader data convert` as a user would (into the bench's folder).
    const parquet = join(folder, 'MIN.US.parquet');
    const converted = spawnSync(
      process.execPath,
      [join(ROOT, 'bin/trader.js'), 'data', 'convert', join(minutes.folder, 'MIN.US.csv'), '--out', folder, '--period', '1m', '--json'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    if (converted.status !== 0) throw new Error(`trader data convert exited ${converted.status}:\n${converted.stderr}`);
    await measure(
      {
        label: 'the same minute bars from a Parquet file (trader data convert)',
        bars: minutes.bars,
        args: [STRATEGY, '--data', parquet, '--period', '1m', '--cash', '100000000'],
        data: [parquet],
      },
      folder,
    );
    // A run that starts inside its data: the strategy (sma-crossover, warm-up slow + 1 bars) is warmed up on
    // the bars before --from, as a user's `--from` run and every walk-forward window are.
    const fromDay = await dayAfterFirstMonth(join(minutes.folder, 'MIN.US.csv'));
    await measure(
      {
        label: `the same minute bars from ${fromDay.date} (--from: sma-crossover warmed up on the bars before)`,
        bars: fromDay.bars,
        args: [
          'strategies/sma-crossover.ts',
          '--data',
          join(minutes.folder, 'MIN.US.csv'),
          '--period',
          '1m',
          '--from',
          fromDay.date,
          '--cash',
          '100000000',
        ],
        data: [join(minutes.folder, 'MIN.US.csv')],
      },
      folder,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
