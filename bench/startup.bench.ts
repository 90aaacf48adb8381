// Start-up of whole `trader` processes, timed from spawn: `trader --help` to exit, a backtest of the bundled
// 20-year daily file (sma-crossover, --json FILE --quiet) to exit (its JSON written), and `trader catalog
// serve` to its listening line. Each twice: as a user runs `trader` (the command npm puts on the PATH for a
// global install or `npm link`: PREFIX/bin/trader, a link to bin/trader.js, whose sh part starts node from the
// start-up snapshot, src/cli/snapshot/) and as the tests run it (`node bin/trader.js`, the plain start). Prints the median, fastest and slowest of BENCH_RUNS runs
// (default 10), every case interleaved run by run, and a bare `node -e 0` for the machine's own noise; with
// /usr/bin/time, also the median CPU time (user + system) of the processes that run to their end, and (from
// /proc) of the catalog server until it is ready: a busy machine inflates CPU time less than wall time.
// The snapshots are built first into a folder of the bench's own (TRADER_SNAPSHOT_DIR).
// BENCH_COMPARE=/other/checkout runs the same cases there too (A/B).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 10);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
/** Clock ticks per second of /proc/PID/stat's CPU times (Linux); undefined elsewhere. */
const TICKS = existsSync('/proc/self/stat') ? Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100 : undefined;

interface Timing {
  /** Milliseconds from spawn to done. */
  readonly wall: number;
  /** CPU milliseconds (user + system) of the process, when measured. */
  readonly cpu?: number;
}

interface Case {
  readonly name: string;
  run(root: string): Promise<Timing>;
}

/** How `trader` is started: the command a global install links (the launcher) or node on the file (the plain start). */
type Start = (root: string, args: readonly string[]) => readonly [string, readonly string[]];
const STARTS: readonly (readonly [string, Start])[] = [
  ['trader', (root, args) => [globalCommand(root), args]],
  ['node bin/trader.js', (root, args) => [process.execPath, [join(root, 'bin', 'trader.js'), ...args]]],
];

/** Per checkout, a prefix laid out as `npm install -g` lays one out, in the bench's folder. */
const prefixes = new Map<string, string>();

function globalCommand(root: string): string {
  const prefix = prefixes.get(root);
  if (prefix === undefined) throw new Error(`no global prefix made for ${root}`);
  return join(prefix, 'bin', 'trader');
}

function makeGlobalPrefix(root: string, folder: string): void {
  const prefix = join(folder, `prefix-${prefixes.size}`);
  mkdirSync(join(prefix, 'lib', 'node_modules'), { recursive: true });
  mkdirSync(join(prefix, 'bin'));
  symlinkSync(root, join(prefix, 'lib', 'node_modules', 'longport-trader'));
  symlinkSync('../lib/node_modules/longport-trader/bin/trader.js', join(prefix, 'bin', 'trader'));
  prefixes.set(root, prefix);
}

export default async function startupBench(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'startup-bench-'));
  const env = {
    ...process.env,
    TRADER_CACHE_DIR: join(folder, 'cache'),
    TRADER_SNAPSHOT_DIR: join(folder, 'snapshots'),
    CATALOG_TOKENS: 'bench-token',
    NO_COLOR: '1',
  };
  const roots = [ROOT, ...(process.env['BENCH_COMPARE'] ? [process.env['BENCH_COMPARE']] : [])];
  const backtest = [
    'backtest',
    'strategies/sma-crossover.ts',
    '--data',
    'backtest-data/SPX.US.csv',
    '--json',
    join(folder, 'out.json'),
    '--quiet',
  ];
  const catalog = ['catalog', 'serve', '--port', '0', '--db', join(folder, 'catalog.sqlite')];
  const cases: Case[] = [
    { name: 'node -e 0 (the floor)', run: async () => untilExit(process.execPath, ['-e', '0'], ROOT, env) },
    ...STARTS.flatMap(([how, start]): Case[] => [
      { name: `${how} --help`, run: async (root) => untilExit(...start(root, ['--help']), root, env) },
      {
        name: `${how} backtest strategies/sma-crossover.ts (SPX.US, 5,105 daily bars) --json FILE --quiet`,
        run: async (root) => untilExit(...start(root, backtest), root, env),
      },
      {
        name: `${how} catalog serve, until it listens`,
        run: async (root) => untilLine(...start(root, catalog), root, env, /listening on/),
      },
    ]),
  ];
  try {
    for (const root of roots) {
      makeGlobalPrefix(root, folder);
      await buildSnapshot(root, env);
    }
    // One untimed run of each: the strategy compile cache and the OS file cache start warm, as for a user's second run.
    for (const root of roots) for (const one of cases) await one.run(root);
    console.log(`${RUNS} runs per case, ${availableParallelism()} CPUs, load average ${loadavg()[0]?.toFixed(2)} at start`);
    const timings = cases.map(() => roots.map(() => [] as Timing[]));
    for (let run = 0; run < RUNS; run += 1)
      for (const [caseIndex, one] of cases.entries())
        for (const [rootIndex, root] of roots.entries()) timings[caseIndex]![rootIndex]!.push(await one.run(root));
    for (const [caseIndex, one] of cases.entries()) {
      for (const [rootIndex, root] of roots.entries()) {
        const measured = timings[caseIndex]![rootIndex]!;
        const cpu = measured.every((timing) => timing.cpu !== undefined)
          ? `; CPU median ${Math.round(median(measured.map((timing) => timing.cpu!)))} ms`
          : '';
        console.log(`${one.name}${roots.length > 1 ? ` [${root}]` : ''}: ${summary(measured.map((timing) => timing.wall))}${cpu}`);
      }
    }
    console.log(`load average ${loadavg()[0]?.toFixed(2)} at the end`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The start-up snapshot of a checkout in the bench's folder (a checkout from before snapshots has none). */
async function buildSnapshot(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const builder = join(root, 'dist', 'cli', 'snapshot', 'build.js');
  if (!existsSync(builder)) return;
  const { buildSnapshot: build, snapshotOf } = (await import(pathToFileURL(builder).href)) as typeof import('../src/cli/snapshot/build.js');
  const found = snapshotOf(root, env);
  if (found === undefined) throw new Error(`${root}: the launcher cannot tell where its snapshot goes`);
  if (found.state !== 'ready' && (await build(found.target)) !== 'built')
    throw new Error(`${root}: no start-up snapshot (${found.target.entry}/error.log)`);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
}

function summary(times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `median ${Math.round(median(times))} ms (fastest ${Math.round(sorted[0]!)}, slowest ${Math.round(sorted.at(-1)!)})`;
}

// /usr/bin/time adds its own exec (a millisecond or two) to the wall time; its last stderr line is the CPU.
function untilExit(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Timing {
  const [program, programArgs] = TIME === undefined ? [command, args] : [TIME, ['-f', 'cpu %U %S', command, ...args]];
  const started = performance.now();
  const result = spawnSync(program, programArgs, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${String(result.stderr)}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(String(result.stderr));
  return cpu === null ? { wall } : { wall, cpu: (Number(cpu[1]) + Number(cpu[2])) * 1000 };
}

async function untilLine(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<Timing> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  try {
    return await new Promise<Timing>((resolve, reject) => {
      let output = '';
      const read = (chunk: Buffer) => {
        output += String(chunk);
        if (!ready.test(output)) return;
        const wall = performance.now() - started;
        const cpu = cpuSoFar(child.pid);
        resolve(cpu === undefined ? { wall } : { wall, cpu });
      };
      child.stdout.on('data', read);
      child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
      void closed.then(() => reject(new Error(`${args.join(' ')} exited before it was ready: ${output}`)));
    });
  } finally {
    child.kill('SIGTERM');
    await closed;
  }
}

// CPU time (user + system) a running process has used so far, from /proc (a server that does not exit).
function cpuSoFar(pid: number | undefined): number | undefined {
  if (TICKS === undefined || pid === undefined) return undefined;
  try {
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return undefined;
  }
}
