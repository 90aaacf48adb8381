// `trader optimize`, `trader walkforward` and `trader check` as a user runs them: the binary over the bundled
// 20-year S&P 500 history, its outputs and exit statuses, and each trial agreeing with `trader backtest`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestResultSchema } from '../../src/backtest/result.js';
import { OBJECTIVE_NAMES } from '../../src/research/objective.js';
import { reapWhenTestEnds } from '../support/child-reaper.js';
import { inBatches, runTrader, type TraderRun } from '../support/http/run-trader.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SMA = 'strategies/sma-crossover.ts';
const GRID = ['--param', 'fast=5:15:5', '--param', 'slow=20:40:10', '--workers', '1'];
/** The strategy that throws in the trials with fast 4, on the bundled file. */
const FAILS_AT_FAST_4 = ['test/research/strategies/fails-at-fast-4.ts', '--data', 'backtest-data/SPX.US.csv', '--symbols', 'SPX.US'];
/** Every trial of this grid fails (fast=4). */
const FAILS_IN_EVERY_TRIAL = [...FAILS_AT_FAST_4, '--param', 'fast=4', '--param', 'slow=10:12'];
/** An optimize run where the strategy throws in the trials with fast 4. */
const FAILING = ['optimize', ...FAILS_AT_FAST_4, '--param', 'fast=2:6:2', '--param', 'slow=10'];

let folder: string;
const runs = new Map<string, TraderRun>();
const run = (name: string): TraderRun => runs.get(name)!;
interface Trial {
  readonly params: Record<string, number>;
  readonly metrics: { readonly sharpe: number; readonly totalReturn: number; readonly closedTrades: number; readonly bars: number };
}
/** The parts of the commands' JSON documents these tests read. */
interface ResearchJson {
  readonly trials: number;
  readonly finished: number;
  readonly interrupted: boolean;
  readonly ranked: readonly Trial[];
  readonly windows: readonly {
    readonly params: Record<string, number>;
    readonly train: { readonly from: string; readonly to: string };
    readonly test: { readonly from: string; readonly to: string };
  }[];
  readonly settings: Record<string, unknown>;
  readonly stitched: readonly unknown[];
  readonly outOfSample: { readonly totalReturn: number };
  readonly passed: boolean;
  readonly checks: readonly { readonly check: string; readonly passed: boolean }[];
}
const json = async (file: string): Promise<ResearchJson> => JSON.parse(await readFile(join(folder, file), 'utf8'));

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'research-cli-'));
  const cases: Record<string, readonly string[]> = {
    optimize: [
      'optimize',
      SMA,
      ...GRID,
      '--json',
      join(folder, 'optimize.json'),
      '--csv',
      join(folder, 'optimize.csv'),
      '--report',
      join(folder, 'optimize.html'),
    ],
    best: ['backtest', SMA, '--param', 'fast=5', '--param', 'slow=30', '--json', join(folder, 'best.json'), '--quiet'],
    ranged: ['optimize', SMA, ...GRID, '--from', '2012-01-01', '--to', '2016-12-31', '--json', join(folder, 'ranged.json')],
    rangedBest: ['backtest', SMA, '--from', '2012-01-01', '--to', '2016-12-31', '--json', join(folder, 'ranged-best.json'), '--quiet'],
    walkforward: ['walkforward', SMA, ...GRID, '--train', '4y', '--test', '2y', '--json', join(folder, 'walkforward.json')],
    walkforwardGaps: ['walkforward', SMA, ...GRID, '--train', '4y', '--test', '1y', '--step', '2y'],
    walkforwardOverlapping: ['walkforward', SMA, ...GRID, '--train', '4y', '--test', '2y', '--step', '1y', '--quiet'],
    walkforwardTooShort: ['walkforward', SMA, ...GRID, '--train', '30y', '--test', '1y'],
    csvStdout: ['optimize', SMA, ...GRID, '--csv', '-'],
    bothStdout: ['optimize', SMA, ...GRID, '--csv', '-', '--json', '-'],
    checkHonest: [
      'check',
      SMA,
      '--param',
      'fast=5',
      '--param',
      'slow=20',
      '--cuts',
      '3',
      '--parity-bars',
      '40',
      '--from',
      '2018-01-01',
      '--json',
      join(folder, 'check.json'),
    ],
    checkPeeking: [
      'check',
      'test/research/strategies/peeking.ts',
      '--data',
      'backtest-data/SPX.US.csv',
      '--symbols',
      'SPX.US',
      '--only',
      'look-ahead',
      '--from',
      '2019-01-01',
    ],
    checkReadsData: [
      'check',
      'test/research/strategies/reads-data.ts',
      '--data',
      'backtest-data/SPX.US.csv',
      '--only',
      'look-ahead',
      '--from',
      '2019-01-01',
    ],
    checkRandomAtLoad: [
      'check',
      'test/research/strategies/random-at-load.ts',
      '--data',
      'backtest-data/SPX.US.csv',
      '--only',
      'determinism',
      '--from',
      '2019-01-01',
    ],
    checkModuleState: [
      'check',
      'test/research/strategies/module-cooldown.ts',
      '--data',
      'backtest-data/SPX.US.csv',
      '--only',
      'determinism',
      '--from',
      '2019-01-01',
    ],
    checkStdout: ['check', SMA, '--only', 'determinism', '--from', '2019-01-01', '--json', '-'],
    checkTooShort: ['check', SMA, '--only', 'warm-up', '--from', '2019-10-01'],
    ownSubscription: ['backtest', 'test/research/strategies/fails-from-2019.ts', '--quiet'],
    walkforwardFailing: [
      'walkforward',
      'test/research/strategies/stream-fails-from-2019.ts',
      '--param',
      'fast=5:10:5',
      '--train',
      '4y',
      '--test',
      '2y',
    ],
    walkforwardAllFailing: ['walkforward', ...FAILS_IN_EVERY_TRIAL, '--train', '10y', '--test', '5y', '--quiet'],
    allFailing: ['optimize', ...FAILS_IN_EVERY_TRIAL],
    failing: [...FAILING, '--json', join(folder, 'failing.json')],
    checkShortWarmUp: [
      'check',
      'test/research/strategies/short-warmup.ts',
      '--data',
      'backtest-data/SPX.US.csv',
      '--symbols',
      'SPX.US',
      '--only',
      'warm-up',
    ],
    failingJsonStdout: [...FAILING, '--json', '-'],
    failingCsvStdout: [...FAILING, '--csv', '-'],
    inProcess: ['optimize', SMA, ...GRID.slice(0, 4), '--json', join(folder, 'in-process.json')],
    badParam: ['optimize', SMA, '--param', 'fast=ten'],
    textForNumber: ['optimize', SMA, ...GRID, '--top', 'ten'],
    otherObjective: ['optimize', SMA, ...GRID, '--objective', 'averageTrade', '--constraint', 'exposure<0.99', '--top', '3'],
    workerShortLock: ['worker', '--queue', 'redis://127.0.0.1:1/0', '--lock-ms', '0'],
    badBlocks: ['optimize', SMA, ...GRID, '--blocks', '22'],
    windowWithoutQueue: ['optimize', SMA, ...GRID, '--queue-window', '100'],
    trialsOfAGrid: ['optimize', SMA, ...GRID, '--trials', '10'],
    unwritableReport: ['optimize', SMA, ...GRID, '--report', join(folder, 'missing', 'optimize.html')],
    unwritableWalkforward: ['walkforward', SMA, ...GRID, '--train', '4y', '--test', '2y', '--json', join(folder, 'optimize.csv', 'w.json')],
    unwritableCheck: ['check', SMA, '--json', folder],
    noParams: ['optimize', SMA, '--workers', '1'],
    noneRanked: ['optimize', SMA, '--param', 'fast=5:10:5', '--param', 'slow=20', '--workers', '1', '--min-trades', '100000'],
    oneCombination: ['walkforward', SMA, '--param', 'fast=10', '--train', '10y', '--test', '5y', '--workers', '1', '--quiet'],
    help: ['optimize', '--help'],
    walkforwardHelp: ['walkforward', '--help'],
    walkforwardTop: ['walkforward', SMA, ...GRID, '--train', '4y', '--test', '2y', '--top', '3'],
    seedTooLarge: ['optimize', SMA, ...GRID, '--search', 'random', '--trials', '3', '--seed', '99999999999999999999'],
    seedWrapping: ['optimize', SMA, ...GRID, '--search', 'random', '--trials', '3', '--seed', '4294967296'],
  };
  const results = await inBatches(
    Object.values(cases).map((args) => () => runTrader(args, {})),
    3,
  );
  for (const [index, name] of Object.keys(cases).entries()) runs.set(name, results[index]!);
}, 300_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('trader optimize', () => {
  it('ranks the grid by Sharpe, and its best trial is the backtest of those params', async () => {
    expect(run('optimize').code).toBe(0);
    const result = await json('optimize.json');
    expect([result.trials, result.finished, result.interrupted]).toEqual([9, 9, false]);
    const sharpes = result.ranked.map((trial) => trial.metrics.sharpe);
    expect([...sharpes].sort((a, b) => b - a)).toEqual(sharpes);
    const best = result.ranked[0]!;
    expect(best.params).toMatchObject({ fast: 5, slow: 30 });
    const backtest = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'best.json'), 'utf8')));
    expect(best.metrics.sharpe).toBe(backtest.metrics.sharpe);
    expect(best.metrics.totalReturn).toBe(backtest.metrics.totalReturn);
    expect(best.metrics.closedTrades).toBe(backtest.metrics.closedTrades);
    expect(run('optimize').stdout).toMatch(/Probability of backtest overfitting \(CSCV/);
    expect((await readFile(join(folder, 'optimize.csv'), 'utf8')).trim().split('\n')).toHaveLength(10);
    expect((await stat(join(folder, 'optimize.html'))).size).toBeGreaterThan(10_000);
  });

  it("echoes the run's settings in its JSON, as a backtest's JSON does", async () => {
    const { settings } = await json('optimize.json');
    expect(settings).toEqual({
      strategyFile: SMA,
      strategyHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      defaults: { fast: 10, slow: 30, quantity: 100 },
      search: 'grid',
      seed: 1,
      trials: null,
      params: { fast: '5:15:5', slow: '20:40:10' },
      objective: 'sharpe:max',
      constraints: [],
      minTrades: 0,
      blocks: 16,
      data: expect.stringMatching(/backtest-data/),
      dataHash: expect.stringMatching(/^sha256:/),
      from: null,
      to: null,
      symbols: ['SPX.US'],
      period: 'day',
      cash: expect.any(String),
      fill: expect.any(String),
      intrabar: expect.any(String),
      slippageBps: 0,
      maxParticipation: 1,
      commission: null,
      fees: expect.any(String),
      short: 'off',
      borrowRate: expect.any(Number),
      shortMargin: null,
      adjust: 'none',
      corporateActions: expect.any(Number),
      risk: null,
      riskFreeRate: expect.any(Number),
    });
    expect((await json('ranged.json')).settings).toMatchObject({ from: '2012-01-01', to: '2016-12-31' });
  });

  it('refuses a seed outside 0 … 2^32 − 1 (the generator would wrap it), echoing it as typed, exit status 2', () => {
    expect(run('seedTooLarge')).toMatchObject({
      code: 2,
      stderr: 'error: --seed: a whole number from 0 to 4294967295, got 99999999999999999999\n',
    });
    expect(run('seedWrapping')).toMatchObject({ code: 2, stderr: 'error: --seed: a whole number from 0 to 4294967295, got 4294967296\n' });
  });

  it('writes the trials as CSV on stdout with --csv - (and nothing else there), the same rows as the file', async () => {
    expect(run('csvStdout').code).toBe(0);
    expect(run('csvStdout').stdout).toBe(await readFile(join(folder, 'optimize.csv'), 'utf8'));
    expect(run('bothStdout').code).toBe(2);
    expect(run('bothStdout').stderr).toContain('error: --json - and --csv - would both write to stdout: send one to a file');
  });

  it('runs a small grid without --workers in its own thread, with the result of the worker threads', async () => {
    expect(GRID.slice(4)).toEqual(['--workers', '1']);
    expect(run('inProcess').code).toBe(0);
    expect(await json('in-process.json')).toEqual(await json('optimize.json'));
  });

  it('with --from/--to runs each trial on those dates, warmed up as trader backtest --from/--to is', async () => {
    expect(run('ranged').code).toBe(0);
    const result = await json('ranged.json');
    const trial = result.ranked.find((one) => one.params.fast === 10 && one.params.slow === 30)!;
    const backtest = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'ranged-best.json'), 'utf8')));
    expect(trial.metrics.totalReturn).toBe(backtest.metrics.totalReturn);
    expect(trial.metrics.closedTrades).toBe(backtest.metrics.closedTrades);
    expect(trial.metrics.bars).toBe(backtest.metrics.bars);
  });

  it("continues a run from its --resume file, and refuses another run's file, exit status 2", async () => {
    const resume = join(folder, 'resume.jsonl');
    const first = await runTrader(['optimize', SMA, ...GRID, '--resume', resume], {});
    expect(first.code).toBe(0);
    expect((await readFile(resume, 'utf8')).trim().split('\n').length).toBeGreaterThanOrEqual(9);
    const again = await runTrader(['optimize', SMA, ...GRID, '--resume', resume, '--json', '-'], {});
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/resuming: 9 of 9 trials already finished/);
    expect(JSON.parse(again.stdout).ranked[0].params).toMatchObject({ fast: 5, slow: 30 });
    const other = await runTrader(
      ['optimize', SMA, '--param', 'fast=5:10:5', '--param', 'slow=20', '--workers', '1', '--resume', resume],
      {},
    );
    expect(other.code).toBe(2);
  }, 120_000);

  it('refuses to resume the trials of a strategy since edited (its defaults, its logic, a file it imports), saying what changed, exit status 2', async () => {
    const project = await mkdtemp(join(folder, 'edited-'));
    const strategy = join(project, 'S.ts');
    const tag = join(project, 'tag.ts');
    const source = (await readFile(join(REPO_ROOT, SMA), 'utf8'))
      .replace("tag: 'golden-cross'", 'tag: TAG')
      .replace("from 'longport-trader';", "from 'longport-trader';\nimport { TAG } from './tag';");
    await writeFile(strategy, source);
    await writeFile(tag, "export const TAG = 'golden-cross';\n");
    const resume = join(project, 's.jsonl');
    const data = join(REPO_ROOT, 'backtest-data/SPX.US.csv');
    const args = [
      'optimize',
      strategy,
      '--data',
      data,
      '--param',
      'fast=5:10:5',
      '--param',
      'slow=20',
      '--workers',
      '1',
      '--resume',
      resume,
      '--quiet',
    ];
    expect((await runTrader(args, {})).code).toBe(0);
    const fresh = `to start afresh, delete ${resume} or give another --resume file`;

    await writeFile(strategy, source.replace('quantity: 100 }', 'quantity: 50 }'));
    const defaults = await runTrader(args, {});
    expect(defaults.code).toBe(2);
    expect(defaults.stderr).toContain(
      `error: ${resume} holds the trials of another run; changed since: the strategy's code (its file or a file it imports); the strategy's default params ({"fast":10,"slow":30,"quantity":100} → {"fast":10,"slow":30,"quantity":50}). Run the same strategy, params, data and settings to continue, or ${fresh}`,
    );

    await writeFile(strategy, source.replace('fast SMA crossed below slow', 'fast below slow'));
    const logic = await runTrader(args, {});
    expect(logic.code).toBe(2);
    expect(logic.stderr).toContain("changed since: the strategy's code (its file or a file it imports). Run");

    await writeFile(strategy, source);
    await writeFile(tag, "export const TAG = 'golden';\n");
    expect(await runTrader(args, {})).toMatchObject({ code: 2, stderr: expect.stringContaining("changed since: the strategy's code") });

    await writeFile(tag, "export const TAG = 'golden-cross';\n");
    const same = await runTrader(args, {});
    expect(same.code).toBe(0);
    expect(same.stderr).toMatch(/resuming: 2 of 2 trials already finished/);
  }, 120_000);

  it('refuses to resume the trials of a run whose risk file was since edited, saying so, exit status 2', async () => {
    const project = await mkdtemp(join(folder, 'risk-'));
    const risk = join(project, 'risk.json');
    const resume = join(project, 'r.jsonl');
    await writeFile(risk, '{ "maxPositionPerSymbol": 1000 }\n');
    const args = [
      'optimize',
      SMA,
      '--param',
      'fast=5:10:5',
      '--param',
      'slow=20',
      '--workers',
      '1',
      '--risk',
      risk,
      '--resume',
      resume,
      '--quiet',
    ];
    expect((await runTrader(args, {})).code).toBe(0);
    // The same file name, other limits: its trials would be ranked as if run under these.
    await writeFile(risk, '{ "maxPositionPerSymbol": 50 }\n');
    const edited = await runTrader(args, {});
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain(
      `error: ${resume} holds the trials of another run; changed since: the risk file's content (--risk). Run`,
    );
    await writeFile(risk, '{ "maxPositionPerSymbol": 1000 }\n');
    const same = await runTrader(args, {});
    expect(same.code).toBe(0);
    expect(same.stderr).toMatch(/resuming: 2 of 2 trials already finished/);
  }, 120_000);

  it('stops on Ctrl-C with exit status 130, keeping the finished trials for --resume', async () => {
    const resume = join(folder, 'interrupted.jsonl');
    await writeFile(resume, '');
    const child = spawn(
      process.execPath,
      ['bin/trader.js', 'optimize', SMA, '--param', 'fast=2:40', '--param', 'slow=41:120', '--workers', '1', '--resume', resume],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    reapWhenTestEnds(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Interrupt once a few trials are on file (the header line and at least three trials).
    for (;;) {
      const lines = (await readFile(resume, 'utf8')).split('\n').filter((line) => line !== '');
      if (lines.length >= 4) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    const kept = (await readFile(resume, 'utf8')).split('\n').filter((line) => line !== '').length;
    expect(kept).toBeGreaterThanOrEqual(4);
    expect(stderr).not.toMatch(/Error/);
  }, 120_000);

  it('on Ctrl-C (twice) without --resume saves the finished trials to a file in the working folder; --resume runs only the rest', async () => {
    const project = await mkdtemp(join(folder, 'project-'));
    const marks = join(project, 'marks.txt');
    const args = [
      join(REPO_ROOT, 'bin/trader.js'),
      'optimize',
      join(REPO_ROOT, 'test/research/strategies/marks-runs.ts'),
      '--data',
      join(REPO_ROOT, 'backtest-data/SPX.US.csv'),
      '--param',
      'fast=2:40',
      '--param',
      'slow=41:120',
      '--workers',
      '1',
    ];
    const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', TRADER_TEST_MARKS: marks };
    const child = spawn(process.execPath, args, { cwd: project, env, stdio: ['ignore', 'ignore', 'pipe'] });
    reapWhenTestEnds(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const started = async (): Promise<number> => (await readFile(marks, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    // In this thread (one worker) a trial is kept before the next starts: three started, two finished.
    while ((await started()) < 3) await new Promise((resolve) => setImmediate(resolve));
    child.kill('SIGINT');
    // A second Ctrl-C while it stops (terminals and `timeout -s INT` often send two) must not cost the trials.
    while (!stderr.includes('stopping:')) await new Promise((resolve) => setImmediate(resolve));
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(stderr).toMatch(/stopping: finishing the work in flight .*Ctrl-C again is ignored/);
    const saved = /interrupted: (\d+) finished trials saved to (.+); continue with --resume (.+)\n/.exec(stderr);
    expect(saved?.[2]).toBe('marks-runs.trials.jsonl');
    const finished = Number(saved![1]);
    expect(finished).toBeGreaterThanOrEqual(2);
    const file = join(project, 'marks-runs.trials.jsonl');
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(1 + finished);
    const before = await started();
    const resumed = await runTrader([...args.slice(1), '--resume', file, '--json', '-', '--top', '1'], { TRADER_TEST_MARKS: marks });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ trials: 39 * 80, finished: 39 * 80, interrupted: false });
    expect((await started()) - before).toBe(39 * 80 - finished);
  }, 120_000);

  it('refuses a parameter range it cannot read, naming it, exit status 2', () => {
    expect(run('badParam').code).toBe(2);
    expect(run('badParam').stderr).toMatch(/refuses every combination of the --param ranges .*fast/);
  });

  it('shows the objective and the constrained metrics in the table when the usual columns leave them out', () => {
    const { code, stdout } = run('otherObjective');
    expect(code).toBe(0);
    const header = stdout.split('\n').find((line) => line.trimStart().startsWith('#'))!;
    expect(header.trim().split(/ +/).slice(0, 5)).toEqual(['#', 'fast', 'slow', '*averageTrade', 'exposure']);
    // Ranked by it: the column falls from the top row down.
    const rows = stdout.split('\n').filter((line) => /^ *[123] /.test(line));
    const values = rows.map((row) => Number(row.trim().split(/ +/)[3]));
    expect(values).toHaveLength(3);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
  });

  it('refuses text given for a number, naming the option and the text, exit status 2', () => {
    expect(run('textForNumber')).toMatchObject({ code: 2, stderr: 'error: --top: a number expected, got "ten"\n' });
  });

  it('refuses a worker lock too short for a busy machine, before reaching for Redis, exit status 2', () => {
    expect(run('workerShortLock')).toMatchObject({
      code: 2,
      stderr: 'error: --lock-ms: a whole number of milliseconds ≥ 1000, got 0\n',
    });
  });

  it('refuses more CSCV blocks than it can split in reasonable time, exit status 2', () => {
    expect(run('badBlocks').code).toBe(2);
    expect(run('badBlocks').stderr).toMatch(/--blocks: an even number from 2 to 20, got 22/);
  });

  it('refuses --trials for a grid, which runs every combination, exit status 2', () => {
    expect(run('trialsOfAGrid')).toMatchObject({
      code: 2,
      stderr: 'error: --trials: only with --search random (a grid runs every combination)\n',
    });
  });

  it('refuses --queue-window without --queue, exit status 2', () => {
    expect(run('windowWithoutQueue').code).toBe(2);
    expect(run('windowWithoutQueue').stderr).toMatch(/--queue-window: only with --queue/);
  });

  it('refuses an output file it could not write before running a trial, naming the flag and why, exit status 2', () => {
    const missing = join(folder, 'missing');
    expect(run('unwritableReport')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: --report ${join(missing, 'optimize.html')}: the folder ${missing} does not exist\n`,
    });
    expect(run('unwritableWalkforward')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: --json ${join(folder, 'optimize.csv', 'w.json')}: ${join(folder, 'optimize.csv')} is not a folder\n`,
    });
    expect(run('unwritableCheck')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: --json ${folder}: is a folder: give a file name\n`,
    });
  });

  it.skipIf(!existsSync('/dev/full'))(
    'keeps the finished trials when an output cannot be written (a full disk), and --resume writes it without running them again',
    async () => {
      const project = await mkdtemp(join(folder, 'full-'));
      const marks = join(project, 'marks.txt');
      const args = [
        'optimize',
        join(REPO_ROOT, 'test/research/strategies/marks-runs.ts'),
        '--data',
        join(REPO_ROOT, 'backtest-data/SPX.US.csv'),
        '--param',
        'fast=2:6:2',
        '--param',
        'slow=41',
        '--workers',
        '1',
        '--quiet',
      ];
      const full = await runTrader([...args, '--json', '/dev/full'], { TRADER_TEST_MARKS: marks }, project);
      expect(full.code).toBe(1);
      expect(full.stderr).toMatch(/error: cannot write \/dev\/full: no space left on the device/);
      expect(full.stderr).toMatch(
        /the 3 finished trials are in marks-runs\.trials\.jsonl: rerun with --resume marks-runs\.trials\.jsonl to write the outputs without running them again/,
      );
      const started = (await readFile(marks, 'utf8')).trim().split('\n').length;
      const again = await runTrader(
        [...args, '--resume', 'marks-runs.trials.jsonl', '--json', 'ranked.json'],
        { TRADER_TEST_MARKS: marks },
        project,
      );
      expect(again.code).toBe(0);
      expect(JSON.parse(await readFile(join(project, 'ranked.json'), 'utf8'))).toMatchObject({ trials: 3, finished: 3 });
      expect((await readFile(marks, 'utf8')).trim().split('\n')).toHaveLength(started);
    },
    120_000,
  );

  it('says when there is nothing to search: no --param range, or values that make one combination', () => {
    expect(run('noParams').code).toBe(0);
    expect(run('noParams').stderr).toMatch(
      /note: no --param ranges: one trial of the strategy's defaults, nothing searched; give ranges, e\.g\. --param fast=START:END:STEP/,
    );
    expect(run('oneCombination').code).toBe(0);
    expect(run('oneCombination').stderr).toMatch(/note: the --param values make one combination, nothing searched/);
    expect(run('optimize').stderr).not.toMatch(/nothing searched/);
    expect(run('noParams').stdout).toMatch(/Probability of backtest overfitting: — \(it needs 2 finished trials or more, 1 finished\)/);
  });

  it('says why no trial is ranked, and why the best has no deflated Sharpe ratio then', () => {
    const { code, stdout } = run('noneRanked');
    expect(code).toBe(0);
    expect(stdout).toMatch(/2 of 2 trials finished .*ranked 0, excluded: fewer than 100000 trades ×2/);
    expect(stdout).toMatch(/No trial can be ranked \(left out: fewer than 100000 trades ×2\)\./);
    expect(stdout).toMatch(/Deflated Sharpe ratio of the best: — \(no trial ranked\)/);
  });

  it('explains itself with --help', () => {
    expect(run('help').code).toBe(0);
    expect(run('help').stdout).toMatch(/--objective/);
    expect(run('help').stdout).toMatch(/--resume/);
    expect(run('help').stdout).toMatch(/--queue-window/);
    // Every metric the parser takes, the help's columns joined back into one line.
    const objective = /--objective +([^[]+)/.exec(run('help').stdout)![1]!.replace(/\s+/g, ' ');
    for (const metric of OBJECTIVE_NAMES) expect(objective).toContain(`${metric}`);
  });
});

describe('trader optimize, a strategy that throws', () => {
  it('ranks the other trials and says in which it failed, and why', () => {
    expect(run('failing').code).toBe(0);
    expect(run('failing').stdout).toMatch(/ranked 2, excluded: strategy failed ×1\n/);
    expect(run('failing').stdout).toMatch(
      /the strategy failed in 1 trial \(not ranked\), e\.g\. fast=4 slow=10 quantity=10: no crosses at fast 4 \(at .*fails-at-fast-4\.ts:14:\d+, on the SPX\.US day bar of /,
    );
  });

  it('exits 1 when the strategy failed in every trial (nothing was optimized), 0 when some ran', () => {
    expect(run('allFailing').code).toBe(1);
    expect(run('allFailing').stdout).toMatch(/No trial can be ranked \(left out: strategy failed ×3\)\./);
    expect(run('failing').code).toBe(0);
  });

  it('says so on stderr when the results go to stdout as JSON or CSV (no table there), exit status 0', () => {
    for (const name of ['failingJsonStdout', 'failingCsvStdout']) {
      expect(run(name).code).toBe(0);
      expect(run(name).stderr).toMatch(
        /^warning: the strategy failed in 1 trial \(not ranked\), e\.g\. fast=4 slow=10 quantity=10: no crosses at fast 4/m,
      );
      expect(run(name).stdout).not.toMatch(/the strategy failed/);
    }
    expect(JSON.parse(run('failingJsonStdout').stdout).failed).toHaveLength(1);
  });

  it('lists the failed trials in its JSON, with their params and failure', async () => {
    const document = JSON.parse(await readFile(join(folder, 'failing.json'), 'utf8'));
    expect(document.ranked).toHaveLength(2);
    expect(document.failed).toEqual([
      {
        trial: 1,
        params: { fast: 4, slow: 10, quantity: 10 },
        failure: expect.stringMatching(/^no crosses at fast 4 \(at .*fails-at-fast-4\.ts:14:/),
      },
    ]);
  });
});

describe('a strategy whose own subscription throws', () => {
  it('is reported in one line with its place in the file, and the run exits 1 instead of crashing', () => {
    const { code, stderr } = run('ownSubscription');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^error: a subscription the strategy made itself threw \(.*\): no bars after 2018 \(at test\/research\/strategies\/fails-from-2019\.ts:16:13\)\nerror: thrown \d+ times in all: no bars after 2018/,
    );
    expect(stderr).not.toMatch(/rxjs|Node\.js v/);
  });
});

describe('trader walkforward', () => {
  it('optimizes each training window and stitches the test windows into one out-of-sample curve', async () => {
    expect(run('walkforward').code).toBe(0);
    const result = await json('walkforward.json');
    expect(result.windows.length).toBeGreaterThanOrEqual(6);
    for (const window of result.windows) expect(window.params).toMatchObject({ quantity: 100 });
    expect(result.stitched.length).toBeGreaterThan(1000);
    expect(typeof result.outOfSample.totalReturn).toBe('number');
  });

  it("says which test window's run failed, and leaves out of the training the trials that failed", () => {
    expect(run('walkforwardFailing').code).toBe(0);
    const { stdout } = run('walkforwardFailing');
    expect(stdout).toMatch(
      /2018-01-03\.\.2020-01-02 {2}IS sharpe -?\d\.\d{4} {2}OOS sharpe -?\d\.\d{4} {2}fast=\d+ slow=20 quantity=10 {2}\(the test run failed: no bars after 2018 \(at .*stream-fails-from-2019\.ts:15:\d+, on the SPX\.US day bar of 2019-01-02/,
    );
    expect(stdout).toMatch(
      /2020-01-03\.\.2020-04-17 {2}IS sharpe — {2}OOS sharpe — {2}no trial qualified \(strategy failed ×2\): held cash\n/,
    );
  });

  it('exits 1 when the strategy failed in every training trial of every window (nothing was tested), as optimize does', () => {
    expect(run('walkforwardAllFailing').code).toBe(1);
    expect(run('walkforwardAllFailing').stderr).toMatch(
      /\nerror: the strategy failed in every training trial of every window: nothing was tested\n$/,
    );
    expect(run('walkforwardFailing').code).toBe(0);
  });

  it('refuses a training window longer than the data, saying what the data spans (exit status 2)', () => {
    expect(run('walkforwardTooShort').code).toBe(2);
    expect(run('walkforwardTooShort').stderr).toContain(
      'error: the data (2000-01-03 to 2020-04-17) is shorter than one training window (--train 30y); use a shorter --train or more data',
    );
  });

  it('says why a window has no figure when the strategy held nothing in it', () => {
    // sma-crossover is out of the market through the bundled data's last months (2020-01-03 to the end, 2020-04-17: the
    // window ends on its last bar's day).
    expect(run('walkforward').stdout).toMatch(
      / {2}2020-01-03\.\.2020-04-17 {2}IS sharpe -?\d\.\d{4} {2}OOS sharpe — \(no position held\) {2}fast=/,
    );
    // A window with a figure shows the number alone.
    expect(run('walkforward').stdout).toMatch(/ {2}2004-01-03\.\.2006-01-02 {2}IS sharpe -?\d\.\d{4} {2}OOS sharpe -?\d\.\d{4} {2}fast=/);
  });

  it('says over how many windows a mean is taken when a window has no figure', () => {
    const { stdout } = run('walkforward');
    const windows = stdout.split('\n').filter((line) => /^\d{4}-\d{2}-\d{2}\.\./.test(line)).length;
    expect(stdout).toMatch(
      new RegExp(
        `^sharpe: in-sample mean -?\\d\\.\\d{4}, out-of-sample mean -?\\d\\.\\d{4} \\(over ${windows - 1} of ${windows} windows: the others have no figure\\)$`,
        'm',
      ),
    );
  });

  it('says when the last test window is cut short by the end of the data', () => {
    expect(run('walkforward').stderr).toMatch(
      /note: the last test window, 2020-01-0\d\.\.2020-04-17, ends where the data ends: shorter than --test 2y/,
    );
  });

  it('names every test window the end of the data cuts short, more than one with a step shorter than the test', () => {
    expect(run('walkforwardOverlapping').stderr).toMatch(
      /note: the last 2 test windows, 2019-01-03\.\.2020-04-17 and 2020-01-03\.\.2020-04-17, end where the data ends: shorter than --test 2y/,
    );
  });

  it('shows each window by its first and last day included, in the terminal and the JSON alike', async () => {
    const [first, second] = (await json('walkforward.json')).windows;
    expect([first!.train, first!.test, second!.train]).toEqual([
      { from: '2000-01-03', to: '2004-01-02' },
      { from: '2004-01-03', to: '2006-01-02' },
      { from: '2002-01-03', to: '2006-01-02' },
    ]);
    expect(run('walkforward').stdout).toMatch(
      /^train \(first\.\.last day\) {2}test \(first\.\.last day\) {2}chosen parameters\n2000-01-03\.\.2004-01-02 {2}2004-01-03\.\.2006-01-02 {2}IS/,
    );
  });

  it('takes only the options that change it: no --top (it ranks nothing), --blocks for the JSON pbo of each window', () => {
    const help = run('walkforwardHelp').stdout;
    expect(help).not.toMatch(/--top/);
    // Wrapped where the width of the longest flag puts the line's end.
    expect(help).toMatch(/--blocks +Blocks of bars for each window's probability of backtest overfitting \(`pbo` in\s+--json\)/);
    expect(run('walkforwardTop')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: Unknown argument: top\n/) });
  });

  it('says when a step longer than the test leaves bars out of every test window', () => {
    expect(run('walkforwardGaps').code).toBe(0);
    expect(run('walkforwardGaps').stderr).toMatch(
      /note: --step 2y is longer than --test 1y: the bars between one test window and the next are in none/,
    );
    expect(run('walkforward').stderr).not.toMatch(/note: --step/);
  });
});

describe('trader check', () => {
  it('passes sma-crossover on all four checks', async () => {
    expect(run('checkHonest').code).toBe(0);
    const result = await json('check.json');
    expect(result.passed).toBe(true);
    expect(result.checks.map((check) => [check.check, check.passed])).toEqual([
      ['look-ahead', true],
      ['warm-up', true],
      ['determinism', true],
      ['parity', true],
    ]);
  });

  it('fails a strategy that peeks at the future, exit status 1, naming the first decision that differs', () => {
    expect(run('checkPeeking').code).toBe(1);
    expect(run('checkPeeking').stdout + run('checkPeeking').stderr).toMatch(/FAIL/);
  });

  it('fails a strategy whose declared warm-up is shorter than its average, on the bundled history, exit status 1', () => {
    expect(run('checkShortWarmUp').code).toBe(1);
    expect(run('checkShortWarmUp').stdout).toMatch(
      /FAIL {2}warm-up {6}a run from bar \d+ decided differently after the declared warm-up of 2 bars/,
    );
    // Each side with the time it decided: two runs may decide the same thing on different bars.
    expect(run('checkShortWarmUp').stdout).toMatch(/\n {8}expected at \d{4}-\d\d-\d\dT[\d:]+[-+]\d\d:\d\d \{"strategy":/);
    expect(run('checkShortWarmUp').stdout).toMatch(/\n {8}got {6}at \d{4}-\d\d-\d\dT[\d:]+[-+]\d\d:\d\d \{"strategy":/);
  });

  it('says SKIP, not PASS, for a check the data is too short for (exit status 0)', () => {
    expect(run('checkTooShort').code).toBe(0);
    expect(run('checkTooShort').stdout).toMatch(
      /^SKIP {2}warm-up {6}138 bars are too few: runs warmed up on ten times the declared 31 bars plus 10 need 370\n$/,
    );
  });

  it('prints the results as JSON on stdout with --json -', () => {
    expect(run('checkStdout').code).toBe(0);
    expect(JSON.parse(run('checkStdout').stdout)).toMatchObject({
      strategy: 'sma-crossover',
      passed: true,
      judged: 1,
      checks: [{ check: 'determinism', passed: true, status: 'PASS' }],
    });
  });

  it('fails a strategy that draws a random number as its module loads: the third run loads it again', () => {
    expect(run('checkRandomAtLoad').code).toBe(1);
    expect(run('checkRandomAtLoad').stdout).toMatch(
      /FAIL {2}determinism {2}three runs over \d+ bars \(the strategy loaded again for the third\), \d+ decisions/,
    );
  });

  it('fails a strategy whose module keeps state between runs: the second run in the same process differs', () => {
    expect(run('checkModuleState').code).toBe(1);
    expect(run('checkModuleState').stdout).toMatch(
      /FAIL {2}determinism {2}two runs over \d+ bars in one process differ: the strategy draws something new each run \(Math\.random, the time\) or keeps state between runs/,
    );
  });

  it('fails a strategy that reads the data file itself, which cutting the history cannot catch', () => {
    expect(run('checkReadsData').code).toBe(1);
    expect(run('checkReadsData').stdout).toMatch(
      /FAIL {2}look-ahead {3}the strategy read the data itself \(.*backtest-data\/SPX\.US\.csv\)/,
    );
  });
});
