// The two ways `trader` starts give the same results: bin/trader.js run as a command (its sh part starts node
// from the start-up snapshot, TRADER_SNAPSHOT=require so it cannot quietly take the other way) and
// `node bin/trader.js` (the plain start, ES modules from dist/). Also what the launcher does without a usable
// snapshot: the plain start, and a snapshot built in the background for the next run.
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, snapshotOf } from '../../src/cli/snapshot/build.js';
import { type ProcessRun, runProcess } from '../support/package/run-process.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { spawnTrader } from '../support/run/spawn-run.js';
import { writeCandleFolder } from '../support/sim/candles.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TRADER = join(REPO, 'bin', 'trader.js');
const SPX = join(REPO, 'backtest-data', 'SPX.US.csv');
let folder: string;

/** `from: 'snapshot'` runs the launcher and requires the snapshot; `'plain'` runs node on the file. */
function trader(from: 'snapshot' | 'plain', args: readonly string[], env: Record<string, string> = {}): Promise<ProcessRun> {
  return from === 'snapshot'
    ? runProcess(TRADER, args, { cwd: REPO, env: { TRADER_SNAPSHOT: 'require', ...env } })
    : runProcess(process.execPath, [TRADER, ...args], { cwd: REPO, env });
}

async function both(args: readonly string[]): Promise<{ snapshot: ProcessRun; plain: ProcessRun }> {
  return { snapshot: await trader('snapshot', args), plain: await trader('plain', args) };
}

/**
 * A strategy file that counts the zone lookups of its process: every lookup of the time-zone library ends in
 * a formatter's formatToParts. Read the count from the run with lookupsIn.
 */
async function zoneLookupsStrategy(): Promise<string> {
  const strategy = join(folder, 'zone-lookups.ts');
  await writeFile(
    strategy,
    [
      "import { filter } from 'rxjs';",
      "import { defineStrategy } from 'longport-trader';",
      'let lookups = 0;',
      'const formatToParts = Intl.DateTimeFormat.prototype.formatToParts;',
      'Intl.DateTimeFormat.prototype.formatToParts = function (...args) { lookups += 1; return formatToParts.apply(this, args); };',
      "process.on('exit', () => process.stderr.write('zone lookups: ' + lookups + '\\n'));",
      "export default defineStrategy({ name: 'zone-lookups', symbols: ['SPX.US'], run: (ctx) => ctx.candles().pipe(filter(() => false)) });",
      '',
    ].join('\n'),
  );
  return strategy;
}

function lookupsIn(run: ProcessRun): number {
  return Number(/zone lookups: (\d+)/.exec(run.stderr)?.[1]);
}

describe('trader from the start-up snapshot and from dist/', () => {
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'snapshot-test-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('prints the same help, and the launcher itself prints nothing', async () => {
    const { snapshot, plain } = await both(['--help']);

    expect(snapshot.code).toBe(0);
    expect(snapshot.stderr).toBe('');
    expect(snapshot.stdout).toBe(plain.stdout);
    expect(snapshot.stdout).toContain('trader backtest <strategy>');
  });

  it("exits 2 for bad input in commands loaded beside the snapshot (their errors are dist/'s classes) or run from the research snapshot, as the plain start does", async () => {
    const cases = [
      ['optimize', 'strategies/sma-crossover.ts', '--param', 'fast=30:5'],
      ['check', 'strategies/sma-crossover.ts', '--from', '2030-01-01'],
      ['run', join(folder, 'missing.ts'), '--for', '1s'],
    ];
    for (const args of cases) {
      const { snapshot, plain } = await both(args);
      expect([snapshot.code, plain.code]).toEqual([2, 2]);
      expect(snapshot.stderr).toBe(plain.stderr);
    }
  });

  it('writes a byte-identical backtest result and HTML report (its assets read from dist/), and the same summary', async () => {
    const runs = [];
    for (const from of ['snapshot', 'plain'] as const) {
      const [json, report] = [join(folder, `${from}.json`), join(folder, `${from}.html`)];
      const run = await trader(from, ['backtest', 'strategies/sma-crossover.ts', '--data', SPX, '--json', json, '--report', report]);
      runs.push({ run, json: await readFile(json, 'utf8'), report: await readFile(report, 'utf8') });
    }
    const [snapshot, plain] = runs;

    expect(snapshot!.run.code).toBe(0);
    expect(snapshot!.json).toBe(plain!.json);
    expect(snapshot!.report).toBe(plain!.report);
    expect(snapshot!.run.stdout).toBe(plain!.run.stdout);
    expect(snapshot!.run.stderr).toBe(plain!.run.stderr.replaceAll('plain.', 'snapshot.'));
  });

  it('reads a big folder of CSV files on two threads from either start (a worker thread works in a snapshot-started process)', async () => {
    const data = join(folder, 'two-files');
    await mkdir(data, { recursive: true });
    // Two files of ~5 MB each: past the size at which the load takes a helper thread.
    for (const [symbol, base] of [
      ['A.US', 40],
      ['B.US', 70],
    ] as const) {
      const rows = ['time,open,high,low,close,volume'];
      for (let minute = 0; minute < 110_000; minute += 1) {
        const price = (base + (minute % 37) / 10).toFixed(2);
        rows.push(`${Date.UTC(2024, 0, 2, 14, 30) + minute * 60_000},${price},${price},${price},${price},${100 + (minute % 9)}`);
      }
      await writeFile(join(data, `${symbol}.csv`), `${rows.join('\n')}\n`);
    }
    const results = [];
    for (const from of ['snapshot', 'plain'] as const) {
      const json = join(folder, `two-files-${from}.json`);
      const run = await trader(from, [
        'backtest',
        'strategies/sma-crossover.ts',
        '--data',
        data,
        '--period',
        '1m',
        '--json',
        json,
        '--quiet',
        '--timings',
      ]);
      results.push({ run, json: await readFile(json, 'utf8') });
    }

    for (const { run } of results) {
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^load: 2 files on 2 threads \(the helper read [0-2]\)$/m);
    }
    expect(results[0]!.json).toBe(results[1]!.json);
  });

  it("backtests US data without asking Intl for New York's rules: the snapshot holds the market zones' tables", async () => {
    const strategy = await zoneLookupsStrategy();
    const lookups = async (from: 'snapshot' | 'plain'): Promise<number> => {
      const run = await trader(from, ['backtest', strategy, '--data', SPX, '--quiet']);
      expect(run.code).toBe(0);
      return lookupsIn(run);
    };

    expect(await lookups('snapshot')).toBe(0);
    // The plain start reads the rules from Intl as the file's times are converted (what the count would see).
    expect(await lookups('plain')).toBeGreaterThan(10);
  });

  it("runs trader optimize (its report too) and trader check from the research snapshot with the plain start's results", async () => {
    const results = [];
    for (const from of ['snapshot', 'plain'] as const) {
      const json = join(folder, `optimize-${from}.json`);
      const optimize = await trader(from, [
        'optimize',
        'strategies/sma-crossover.ts',
        '--param',
        'fast=5:15:5',
        '--param',
        'slow=20:40:10',
        '--json',
        json,
        '--report',
        `${json}.html`,
      ]);
      const check = await trader(from, ['check', 'strategies/sma-crossover.ts', '--from', '2015-01-01', '--json', '-']);
      expect([optimize.code, check.code]).toEqual([0, 0]);
      results.push({
        optimize: JSON.parse(await readFile(json, 'utf8')) as unknown,
        report: await readFile(`${json}.html`, 'utf8'),
        check: JSON.parse(check.stdout) as unknown,
      });
    }

    expect(results[0]).toEqual(results[1]);
    expect((results[0]!.optimize as { finished: number }).finished).toBe(9);
  });

  it("gives a strategy the runtime's own domain classes (a Price it makes passes the runtime's instanceof)", async () => {
    const strategy = join(folder, 'limit.ts');
    await writeFile(
      strategy,
      "import { map } from 'rxjs';\nimport { defineStrategy, Price } from 'longport-trader';\nexport default defineStrategy({ name: 'limit', symbols: ['SPX.US'], run: (ctx) => ctx.candles().pipe(map((candle, index) => index % 2 === 0 ? ctx.buy(1, { price: Price.of(candle.close.toString()) }) : ctx.close())) });\n",
    );
    const results = [];
    for (const from of ['snapshot', 'plain'] as const) {
      const json = join(folder, `limit-${from}.json`);
      const run = await trader(from, ['backtest', strategy, '--data', SPX, '--json', json, '--quiet']);
      expect(run.stderr).toBe(`wrote ${json}\n`);
      results.push(await readFile(json, 'utf8'));
    }

    expect(results[0]).toBe(results[1]);
    expect((JSON.parse(results[0]!) as { metrics: { fills: number } }).metrics.fills).toBeGreaterThan(100);
  });

  it("places a failure in the user's helper module as the plain start does (the snapshot's frames mapped back to dist/)", async () => {
    const helpers = join(folder, 'helpers');
    await mkdir(helpers);
    await writeFile(
      join(helpers, 'helper.ts'),
      "import { map } from 'rxjs';\nimport { Price } from 'longport-trader';\nexport const limitPrices = () => map((close: number) => Price.of(close > 1400 ? 'not a price' : String(close)));\n",
    );
    await writeFile(
      join(helpers, 'uses-helper.ts'),
      "import { map } from 'rxjs';\nimport { defineStrategy } from 'longport-trader';\nimport { limitPrices } from './helper.js';\nexport default defineStrategy({ name: 'helper', symbols: ['SPX.US'], run: (ctx) => ctx.candles().pipe(map((candle) => candle.close), limitPrices(), map((price) => ctx.buy(1, { price }))) });\n",
    );
    const { snapshot, plain } = await both(['backtest', join(helpers, 'uses-helper.ts'), '--data', SPX, '--json', '-']);

    expect(snapshot.code).toBe(1);
    expect(snapshot.stderr).toBe(plain.stderr);
    expect(snapshot.stderr).toContain(`failed at ${join(helpers, 'helper.ts')}:3:`);
  });

  it('names file:line:col and shows the line of a strategy that does not compile, with exit status 2', async () => {
    const strategy = join(folder, 'broken.ts');
    await writeFile(
      strategy,
      "import { defineStrategy } from 'longport-trader';\nexport default defineStrategy({ name: 'broken', run: (ctx) => ctx.candles( });\n",
    );
    const { snapshot, plain } = await both(['backtest', strategy, '--data', SPX]);

    expect(snapshot.code).toBe(2);
    expect(snapshot.stderr).toBe(plain.stderr);
    expect(snapshot.stderr).toContain(`${strategy}:2:`);
    expect(snapshot.stderr).toContain("export default defineStrategy({ name: 'broken', run: (ctx) => ctx.candles( });");

    // An import the package does not export: the message names the package's file, not the bridge to it.
    await writeFile(
      strategy,
      "import { defineStrategy, nope } from 'longport-trader';\nexport default defineStrategy({ name: 'x', run: nope });\n",
    );
    const missing = await both(['backtest', strategy, '--data', SPX]);
    expect(missing.snapshot.code).toBe(2);
    expect(missing.snapshot.stderr).toBe(missing.plain.stderr);
    expect(missing.snapshot.stderr).toContain("does not provide an export named 'nope'");
  });

  it('runs the commands outside the snapshot from their files: same output, same usage errors and exit codes', async () => {
    for (const args of [['sim', '--help'], ['backtest', '--help'], ['bogus'], ['backtest'], ['new', 'strategy']]) {
      const { snapshot, plain } = await both(args);

      expect({ args, code: snapshot.code, stdout: snapshot.stdout, stderr: snapshot.stderr }).toEqual({
        args,
        code: plain.code,
        stdout: plain.stdout,
        stderr: plain.stderr,
      });
    }
  });

  it('stops a paper run cleanly on Ctrl-C (the launcher execs node: the signal reaches it)', async () => {
    const data = await writeCandleFolder([wavingDays(60)]);
    const run = spawnTrader(
      [
        'run',
        'strategies/sma-crossover.ts',
        '--symbols',
        AAPL,
        '--data',
        data,
        '--speed',
        '2000000',
        '--journal',
        join(folder, 'j.sqlite'),
        '--json',
      ],
      { TRADER_SNAPSHOT: 'require' },
      { launcher: true },
    );

    await run.waitForLog('replay finished', 60_000);
    const exit = await run.signal('SIGINT');

    expect(exit).toEqual({ code: 0, signal: null });
    expect(JSON.parse(run.stdout())).toMatchObject({ mode: 'paper', strategies: [{ state: 'stopped' }] });
  });

  it('serves the catalog the same way (its modules bundled, evaluated when it runs), and stops on SIGTERM', async () => {
    const answers = [];
    for (const launcher of [true, false]) {
      const server = spawnTrader(
        ['catalog', 'serve', '--port', '0', '--db', join(folder, `catalog-${launcher}.sqlite`)],
        { CATALOG_TOKENS: 'secret', ...(launcher ? { TRADER_SNAPSHOT: 'require' } : {}) },
        { launcher },
      );
      await server.waitForLog('catalog listening');
      // The address is on stdout, which may arrive after the log line on stderr.
      await expect.poll(() => /listening on (\S+)/.test(server.stdout())).toBe(true);
      const url = /listening on (\S+)/.exec(server.stdout())![1]!;
      const created = await fetch(`${url}/artists`, {
        method: 'POST',
        headers: { authorization: 'Bearer secret', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Serú Girán', genre: 'rock' }),
      });
      const document = await (await fetch(`${url}/openapi.json`)).text();
      answers.push({ status: created.status, body: await created.text(), document, exit: await server.signal('SIGTERM') });
    }

    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ status: 400, exit: { code: 0, signal: null } });
  });

  it('starts from the snapshot through a symbolic link, as npm links `trader` into node_modules/.bin', async () => {
    const bin = join(folder, 'link-bin');
    await mkdir(bin);
    await symlink(TRADER, join(bin, 'trader'));

    const run = await runProcess('trader', ['--help'], {
      cwd: folder,
      env: { PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}`, TRADER_SNAPSHOT: 'require' },
    });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('trader backtest <strategy>');
  });

  it('takes the plain start and builds a new snapshot in the background when the one it finds is stale', async () => {
    const snapshots = join(folder, 'snapshots');
    const env = { TRADER_SNAPSHOT_DIR: snapshots };
    const wanted = snapshotOf(REPO, { ...process.env, ...env })!;
    await mkdir(wanted.target.entry, { recursive: true });
    // A stamp for another build or node binary: the snapshot beside it must not be started.
    await writeFile(join(wanted.target.entry, 'stamp'), `${wanted.target.stamp}x\n`);
    await writeFile(join(wanted.target.entry, 'main.blob'), 'not a snapshot');

    const run = await runProcess(TRADER, ['--help'], { cwd: REPO, env });

    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('trader backtest <strategy>');
    await expect.poll(() => snapshotOf(REPO, { ...process.env, ...env })?.state, { timeout: 90_000, interval: 500 }).toBe('ready');
    expect((await trader('snapshot', ['--help'], env)).stdout).toBe(run.stdout);

    // A build of dist/ after the snapshot was made (npm run build in a checkout) makes it stale too.
    const old = new Date(Date.now() - 3_600_000);
    await utimes(join(wanted.target.entry, 'stamp'), old, old);
    expect(snapshotOf(REPO, { ...process.env, ...env })?.state).toBe('missing');
    expect((await trader('snapshot', ['--help'], env)).code).toBe(1);
    expect((await runProcess(TRADER, ['--help'], { cwd: REPO, env: { ...env, TRADER_SNAPSHOT: 'off' } })).code).toBe(0);
  }, 120_000);

  it("builds the snapshot without the zones' tables when they cannot be made, and backtests from it as the plain start does", async () => {
    // A node whose Intl cannot give the market zones' rules: here a wrapper failing zone-tables.js, node for the rest.
    const bin = join(folder, 'node-without-zones');
    await mkdir(bin);
    const node = join(bin, 'node');
    await writeFile(
      node,
      `#!/bin/sh\ncase "$1" in *zone-tables.js) echo 'no zone data' >&2; exit 1 ;; esac\nexec '${process.execPath}' "$@"\n`,
    );
    await chmod(node, 0o755);
    const env = { PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}`, TRADER_SNAPSHOT_DIR: join(folder, 'snapshots-without-zones') };
    const wanted = snapshotOf(REPO, { ...process.env, ...env })!;
    expect(wanted.target.node).toBe(node);

    expect(await buildSnapshot(wanted.target)).toBe('built');

    const strategy = await zoneLookupsStrategy();
    const runs = [];
    for (const from of ['snapshot', 'plain'] as const) {
      const json = join(folder, `without-zones-${from}.json`);
      const run = await trader(from, ['backtest', strategy, '--data', SPX, '--json', json, '--quiet'], env);
      expect(run.code).toBe(0);
      runs.push({ lookups: lookupsIn(run), json: await readFile(json, 'utf8') });
    }
    // The rules come from Intl, as in the plain start: the same lookups, the same result.
    expect(runs[0]!.lookups).toBeGreaterThan(10);
    expect(runs[0]).toEqual(runs[1]);
  }, 120_000);

  it('takes the plain start where it has no cache folder for snapshots (no TRADER_SNAPSHOT_DIR, XDG_CACHE_HOME or HOME: a service, a container)', async () => {
    const env = { HOME: '', TRADER_SNAPSHOT_DIR: '' };

    const run = await runProcess(TRADER, ['--help'], { cwd: REPO, env });
    const where = await runProcess(TRADER, [], { cwd: REPO, env: { ...env, TRADER_SNAPSHOT: 'where' } });
    const required = await runProcess(TRADER, ['--help'], { cwd: REPO, env: { ...env, TRADER_SNAPSHOT: 'require' } });

    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('trader backtest <strategy>');
    // Nowhere to look for one, nor to build one.
    expect(where).toMatchObject({ code: 1, stdout: '' });
    expect(required.code).toBe(1);
    expect(required.stderr).toContain('TRADER_SNAPSHOT=require');
  });

  it('leaves the snapshot out while NODE_OPTIONS is set (its V8 flags would make node refuse it)', async () => {
    const run = await runProcess(TRADER, ['--help'], {
      cwd: REPO,
      env: { NODE_OPTIONS: '--max-old-space-size=512', TRADER_SNAPSHOT: 'require' },
    });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('TRADER_SNAPSHOT=require');
    expect((await runProcess(TRADER, ['--help'], { cwd: REPO, env: { NODE_OPTIONS: '--max-old-space-size=512' } })).code).toBe(0);
  });
});
