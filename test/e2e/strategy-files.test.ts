// Strategy files the way users keep them, through the real binary: any folder, with or without a package.json
// beside them, as .ts, .mts, .js or .mjs; errors that name file:line:col; exit status 2 for a strategy that
// cannot be loaded; and the compiled output cached by content.
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../support/package/run-process.js';

const TRADER = fileURLToPath(new URL('../../bin/trader.js', import.meta.url));
const SPX = fileURLToPath(new URL('../../backtest-data/SPX.US.csv', import.meta.url));
let folder: string;

function flip(name: string): string {
  return `import { map } from 'rxjs';
import { defineStrategy } from 'longport-trader';

export default defineStrategy({
  name: '${name}',
  symbols: ['SPX.US'],
  run: (ctx) => ctx.candles().pipe(map((_candle, index) => (index % 2 === 0 ? ctx.buy(1) : ctx.close()))),
});
`;
}

async function backtest(cwd: string, file: string, extra: readonly string[] = [], env: Record<string, string> = {}) {
  const json = join(folder, `${Math.random().toString(36).slice(2)}.json`);
  const run = await runProcess(process.execPath, [TRADER, 'backtest', file, '--data', SPX, '--json', json, '--quiet', ...extra], {
    cwd,
    env,
  });
  const result =
    run.code === 0 ? (JSON.parse(await readFile(json, 'utf8')) as { strategy: string; metrics: { fills: number } }) : undefined;
  return { ...run, result };
}

describe('strategy files through the binary', () => {
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'strategy-files-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it.each(['ts', 'mts', 'js', 'mjs'])('backtests a .%s strategy from a folder without a package.json', async (extension) => {
    const bare = join(folder, `bare-${extension}`);
    await mkdir(bare);
    await writeFile(join(bare, `flip.${extension}`), flip(`flip-${extension}`));

    const run = await backtest(bare, `flip.${extension}`);

    expect(run.stderr).not.toContain('error');
    expect(run.code).toBe(0);
    expect(run.result?.strategy).toBe(`flip-${extension}`);
    expect(run.result?.metrics.fills).toBeGreaterThan(5000);
  });

  it('backtests through the binary linked from another folder, as a global install puts `trader` on the PATH', async () => {
    const prefix = join(folder, 'global-prefix');
    await mkdir(join(prefix, 'bin'), { recursive: true });
    await symlink(TRADER, join(prefix, 'bin', 'trader'));
    const loose = join(folder, 'loose');
    await mkdir(loose);
    await writeFile(join(loose, 'flip.ts'), flip('flip-via-link'));
    const json = join(folder, 'via-link.json');

    const run = await runProcess('trader', ['backtest', 'flip.ts', '--data', SPX, '--json', json, '--quiet'], {
      cwd: loose,
      env: { PATH: `${join(prefix, 'bin')}${delimiter}${process.env['PATH'] ?? ''}` },
    });

    expect(run.stderr).toBe(`wrote ${json}\n`);
    expect(run.code).toBe(0);
    expect(JSON.parse(await readFile(json, 'utf8'))).toMatchObject({ strategy: 'flip-via-link' });
  });

  it('backtests an ES module strategy beside a CommonJS package.json', async () => {
    const commonjs = join(folder, 'commonjs');
    await mkdir(commonjs);
    await writeFile(join(commonjs, 'package.json'), '{ "name": "old-project", "type": "commonjs" }');
    await writeFile(join(commonjs, 'flip.js'), flip('flip-in-commonjs'));

    const run = await backtest(commonjs, 'flip.js');

    expect(run.code).toBe(0);
    expect(run.result?.strategy).toBe('flip-in-commonjs');
  });

  it('names file:line:col of a syntax error and shows the line, exiting 2', async () => {
    await writeFile(
      join(folder, 'bad.ts'),
      "import { defineStrategy } from 'longport-trader';\nconst size: number = 1;\nexport default defineStrategy({ name: 'bad', symbols: ['SPX.US'], onCandle: (_c, ctx) => ctx.buy(size +) });\n",
    );

    const run = await backtest(folder, 'bad.ts');

    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'error: bad.ts:3:104: Unexpected ")"\n' +
        "  3 | export default defineStrategy({ name: 'bad', symbols: ['SPX.US'], onCandle: (_c, ctx) => ctx.buy(size +) });\n" +
        `    | ${' '.repeat(103)}^\n`,
    );
  });

  it('refuses a paper run of a strategy that does not compile with exit 2, before starting anything', async () => {
    const paper = join(folder, 'paper');
    await mkdir(paper);
    await writeFile(
      join(paper, 'broken.mts'),
      "import { defineStrategy } from 'longport-trader';\nexport default defineStrategy({ name: 'broken',, });\n",
    );

    const run = await runProcess(process.execPath, [TRADER, 'run', 'broken.mts', '--data', SPX, '--for', '5s'], { cwd: paper });

    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('error: broken.mts:2:48: Expected identifier but found ","');
    expect(await readdir(paper)).toEqual(['broken.mts']);
  });

  it('names the .ts line where loading threw (source-mapped), exiting 2; --verbose shows the stack in the .ts file', async () => {
    await writeFile(
      join(folder, 'throws.ts'),
      "import { defineStrategy } from 'longport-trader';\n\nfunction requireKey(): string {\n  throw new Error('LONGPORT key missing');\n}\nconst key: string = requireKey();\nexport default defineStrategy({ name: key, onCandle: () => undefined });\n",
    );

    const plain = await backtest(folder, 'throws.ts');
    const verbose = await backtest(folder, 'throws.ts', ['--verbose']);

    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe('error: throws.ts: cannot load: LONGPORT key missing (at throws.ts:4:9)\n');
    expect(verbose.code).toBe(2);
    expect(verbose.stderr).toContain(`caused by: Error: LONGPORT key missing\n    at requireKey (${join(folder, 'throws.ts')}:4:9)`);
  });

  it('exits 2 for a missing file, a missing package and a default export that is not a strategy', async () => {
    await writeFile(join(folder, 'needs.ts'), "import 'left-pad-for-strategies';\nexport default 1;\n");
    await writeFile(join(folder, 'object.mjs'), 'export default { name: "x" };\n');

    const runs = await Promise.all(['missing.ts', 'needs.ts', 'object.mjs'].map((file) => backtest(folder, file)));

    expect(runs.map((run) => run.code)).toEqual([2, 2, 2]);
    expect(runs[0]!.stderr).toBe('error: missing.ts: no such strategy file\n');
    expect(runs[1]!.stderr).toMatch(/^error: needs\.ts:1:8: cannot find package "left-pad-for-strategies"/);
    expect(runs[2]!.stderr).toContain('object.mjs: the default export is not a strategy');
  });

  it('compiles a strategy once and again only when it or a local import changes', async () => {
    const cache = join(folder, 'cache');
    const project = join(folder, 'cached');
    await mkdir(project);
    await writeFile(join(project, 'name.ts'), "export const NAME = 'first';\n");
    await writeFile(
      join(project, 'named.ts'),
      "import { defineStrategy } from 'longport-trader';\nimport { NAME } from './name.js';\nexport default defineStrategy({ name: NAME, symbols: ['SPX.US'], onCandle: () => undefined });\n",
    );

    const first = await backtest(project, 'named.ts', [], { TRADER_CACHE_DIR: cache });
    const again = await backtest(project, 'named.ts', [], { TRADER_CACHE_DIR: cache });
    const [entry] = await readdir(cache);
    const outputs = async () => (await readdir(join(cache, entry!))).filter((name) => name.endsWith('.mjs'));
    expect(await outputs()).toHaveLength(1);
    await writeFile(join(project, 'name.ts'), "export const NAME = 'second';\n");
    const edited = await backtest(project, 'named.ts', [], { TRADER_CACHE_DIR: cache });

    expect([first.result?.strategy, again.result?.strategy, edited.result?.strategy]).toEqual(['first', 'first', 'second']);
    expect(await outputs()).toHaveLength(2);
  });
});
