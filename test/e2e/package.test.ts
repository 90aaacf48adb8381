// The package the way a user meets it: `npm pack` this checkout, `trader init` a project in a temporary folder,
// install the tarball there with no network (`npm install --offline`: dependencies from the npm cache), then in
// the project backtest, type-check, paper-trade, schedule, use the programmatic subpaths, and run a strategy
// kept outside the project with the project's installation.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPrebuilds, pinOffline } from '../support/package/offline-install.js';
import { expectSuccess, runProcess } from '../support/package/run-process.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NPM = 'npm';
/** Packing builds the declarations when they are stale, and the install reads ~200 packages from the cache. */
const SETUP_MS = 15 * 60_000;
/** Each step runs a few processes (npx, tsc, a paper run of 10 s): minutes on a busy 2-core machine. */
const STEP_MS = 4 * 60_000;

let folder: string;
let project: string;
let installed: string;

describe('the packed package in a user project, installed offline', () => {
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'package-test-'));
    const packed = expectSuccess(await runProcess(NPM, ['pack', '--json', '--pack-destination', folder], { cwd: REPO }), 'npm pack');
    const tarball = join(folder, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    project = join(folder, 'my-bot');
    expectSuccess(await runProcess(process.execPath, [join(REPO, 'bin/trader.js'), 'init', project], { cwd: folder }), 'trader init');
    await pinOffline(project, REPO, tarball);
    const prebuilds = await localPrebuilds(REPO, join(folder, 'prebuilds'));
    expectSuccess(
      await runProcess(NPM, ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', `../${tarball.split('/').pop()}`], {
        cwd: project,
        env: prebuilds,
      }),
      'npm install --offline',
    );
    installed = join(project, 'node_modules', 'longport-trader');
  }, SETUP_MS);

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  }, STEP_MS);

  it(
    'installs compiled code and declarations, not the sources or the test suite',
    async () => {
      const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };

      expect(Object.keys(manifest.exports)).toEqual(['.', './backtest', './runtime', './sim', './openapi', './schedule', './package.json']);
      await expect(readFile(join(installed, 'dist', 'index.d.ts'), 'utf8')).resolves.toContain('defineStrategy');
      await expect(readFile(join(installed, 'src', 'index.ts'))).rejects.toThrow();
      await expect(readFile(join(installed, 'test', 'architecture.test.ts'))).rejects.toThrow();
    },
    STEP_MS,
  );

  it(
    'backtests the example strategy with npx, on the data of the project (from any of its folders)',
    async () => {
      const json = join(folder, 'backtest.json');
      expectSuccess(
        await runProcess(NPM, ['exec', '--offline', '--', 'trader', 'backtest', 'example.ts', '--json', json, '--quiet'], {
          cwd: join(project, 'strategies'),
        }),
        'npx trader backtest',
      );

      const result = JSON.parse(await readFile(json, 'utf8')) as {
        strategy: string;
        symbols: string[];
        settings: { data: string };
        metrics: { fills: number };
      };
      expect(result).toMatchObject({ strategy: 'example', symbols: ['SPX.US'], settings: { data: join(project, 'data') } });
      expect(result.metrics.fills).toBeGreaterThan(10);
    },
    STEP_MS,
  );

  it(
    'builds its start-up snapshot in the background after a first npx run; the next runs start from it, same result',
    async () => {
      const env = { TRADER_SNAPSHOT_DIR: join(folder, 'snapshots') };
      const backtest = async (json: string, more: Record<string, string>) =>
        expectSuccess(
          await runProcess(NPM, ['exec', '--offline', '--', 'trader', 'backtest', 'strategies/example.ts', '--json', json, '--quiet'], {
            cwd: project,
            env: { ...env, ...more },
          }),
          'npx trader backtest',
        );
      const state = async () =>
        (
          await runProcess(join(project, 'node_modules', '.bin', 'trader'), [], { cwd: project, env: { ...env, TRADER_SNAPSHOT: 'where' } })
        ).stdout
          .trim()
          .split('\n')[3];
      expect(await state()).toBe('missing');

      await backtest(join(folder, 'plain.json'), {});
      await expect.poll(state, { timeout: STEP_MS / 2, interval: 1_000 }).toBe('ready');
      await backtest(join(folder, 'snapshot.json'), { TRADER_SNAPSHOT: 'require' });

      expect(await readFile(join(folder, 'snapshot.json'), 'utf8')).toBe(await readFile(join(folder, 'plain.json'), 'utf8'));
    },
    STEP_MS,
  );

  it(
    'type-checks the strategies (npx tsc --noEmit) against the declarations, and catches a type error',
    async () => {
      for (const template of ['rsi', 'breakout', 'dca', 'blank'])
        expectSuccess(
          await runProcess(NPM, ['exec', '--offline', '--', 'trader', 'new', 'strategy', `from-${template}`, '--template', template], {
            cwd: project,
          }),
          'trader new',
        );
      await writeFile(
        join(project, 'strategies', 'uses-subpaths.ts'),
        "import { runBacktest } from 'longport-trader/backtest';\nimport { startSimulator } from 'longport-trader/sim';\nimport { createOpenApiHttp } from 'longport-trader/openapi';\nimport { ScheduleService } from 'longport-trader/schedule';\nimport { createRuntime } from 'longport-trader/runtime';\nexport const used = [runBacktest, startSimulator, createOpenApiHttp, ScheduleService, createRuntime];\n",
      );
      // What the README shows a strategy doing with Node: a settings file beside it, console output.
      await writeFile(
        join(project, 'strategies', 'uses-node.ts'),
        "import { readFileSync } from 'node:fs';\nexport const settings = JSON.parse(readFileSync(new URL('./settings.json', import.meta.url), 'utf8')) as unknown;\nconsole.log(settings);\n",
      );
      expectSuccess(await runProcess(NPM, ['exec', '--offline', '--', 'tsc', '--noEmit'], { cwd: project }), 'npx tsc --noEmit');

      await writeFile(
        join(project, 'strategies', 'wrong.ts'),
        "import { defineStrategy } from 'longport-trader';\nexport default defineStrategy({ name: 'wrong', onCandle: (candle) => candle.nope });\n",
      );
      const failed = await runProcess(NPM, ['exec', '--offline', '--', 'tsc', '--noEmit'], { cwd: project });
      await rm(join(project, 'strategies', 'wrong.ts'));
      expect(failed.code).not.toBe(0);
      expect(failed.stdout).toContain("strategies/wrong.ts(2,77): error TS2339: Property 'nope' does not exist on type 'Candle'.");
    },
    STEP_MS,
  );

  it(
    'paper-trades the example against the built-in simulator, journaling in the state/ folder of the project',
    async () => {
      const run = expectSuccess(
        await runProcess(
          NPM,
          [
            'exec',
            '--offline',
            '--',
            'trader',
            'run',
            'strategies/example.ts',
            '--from',
            '2015-03-02',
            '--speed',
            '864000',
            '--for',
            '10s',
            '--json',
          ],
          { cwd: project },
        ),
        'npx trader run',
      );

      const summary = JSON.parse(run.stdout) as { mode: string; orders: number; strategies: { name: string; state: string }[] };
      expect(summary).toMatchObject({ mode: 'paper', strategies: [{ name: 'example', state: 'stopped' }] });
      expect(summary.orders).toBeGreaterThan(0);
      await expect(readFile(join(project, 'state', 'paper-journal.sqlite'))).resolves.toBeDefined();
    },
    STEP_MS,
  );

  it(
    'runs the schedule of the project until SIGTERM, and a job of it loads the project strategy',
    async () => {
      const now = join(project, 'schedule-now.yaml');
      const config = (await readFile(join(project, 'schedule.yaml'), 'utf8'))
        .replace('stateDir: state', 'stateDir: state/now')
        .replace(
          /jobs:[\s\S]*$/,
          'jobs:\n  - name: now\n    strategy: strategies/example.ts\n    cron: "* * * * * *"\n    days: all\n    symbols: [SPX.US]\n    runFor: 2s\n',
        );
      await writeFile(now, config);

      for (const file of ['schedule.yaml', 'schedule-now.yaml']) {
        // The binary npx runs (node_modules/.bin/trader), started directly so SIGTERM reaches it as from a service manager.
        const child = spawn(join(project, 'node_modules', '.bin', 'trader'), ['schedule', file, '--health-port', '0'], {
          cwd: project,
          env: {
            PATH: process.env['PATH'] ?? '',
            HOME: process.env['HOME'] ?? '',
            TRADER_CACHE_DIR: process.env['TRADER_CACHE_DIR'] ?? '',
            TRADER_SNAPSHOT_DIR: process.env['TRADER_SNAPSHOT_DIR'] ?? '',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let log = '';
        const wanted = file === 'schedule.yaml' ? /schedule running: 1 job\(s\), paper mode/ : /job now (completed|stopped)/;
        const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
        await new Promise<void>((resolve, reject) => {
          child.stderr.on('data', (chunk: Buffer) => {
            log += chunk.toString('utf8');
            if (wanted.test(log)) resolve();
          });
          void closed.then(() => reject(new Error(`trader schedule ${file} ended early:\n${log}`)));
        });
        child.kill('SIGTERM');
        expect(await closed).toBe(0);
        expect(log).toContain('stopped; journal flushed');
        expect(log).not.toMatch(/"level":(50|60)|crashed/);
      }
    },
    STEP_MS,
  );

  it(
    'loads a strategy kept outside any project with the installation that runs it',
    async () => {
      const loose = join(folder, 'loose');
      await mkdir(loose);
      await writeFile(
        join(loose, 'flip.mjs'),
        "import { map } from 'rxjs';\nimport { defineStrategy } from 'longport-trader';\nexport default defineStrategy({ name: 'flip', symbols: ['SPX.US'], run: (ctx) => ctx.candles().pipe(map((candle, index) => (index % 2 === 0 ? ctx.buy(1) : ctx.close()))) });\n",
      );
      const json = join(folder, 'flip.json');

      expectSuccess(
        await runProcess(process.execPath, [join(installed, 'bin', 'trader.js'), 'backtest', 'flip.mjs', '--json', json, '--quiet'], {
          cwd: loose,
        }),
        'the installed trader on a loose strategy',
      );

      const result = JSON.parse(await readFile(json, 'utf8')) as {
        strategy: string;
        settings: { data: string };
        metrics: { fills: number };
      };
      expect(result.strategy).toBe('flip');
      expect(result.settings.data).toBe(join(installed, 'backtest-data'));
      expect(result.metrics.fills).toBeGreaterThan(1000);
    },
    STEP_MS,
  );
});
