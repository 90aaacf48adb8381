import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/domain/index.js';
import { StrategyLoadError, isStrategyDefinition, loadStrategy } from '../../src/strategy/index.js';

const API = fileURLToPath(new URL('../../src/strategy/index.ts', import.meta.url));
let folder: string;

async function write(name: string, text: string): Promise<string> {
  const file = join(folder, name);
  await writeFile(file, text);
  return file;
}

describe('loadStrategy', () => {
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'strategy-loader-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('loads a .ts strategy from any folder and applies symbols, period and param overrides', async () => {
    const file = await write(
      'mine.ts',
      `import { defineStrategy } from ${JSON.stringify(API)};
       export default defineStrategy({ name: 'mine', params: { fast: 10, slow: 30 }, symbols: ['AAPL.US'], run: (ctx) => ctx.denials });`,
    );

    const loaded = await loadStrategy(file, { symbols: ['0700.HK', 'BABA.US'], period: '5m', params: { fast: '5' } });

    expect(loaded).toMatchObject({
      name: 'mine',
      source: file,
      symbols: ['700.HK', 'BABA.US'],
      period: '5m',
      params: { fast: 5, slow: 30 },
    });
  });

  it('loads a plain .js strategy with its own defaults', async () => {
    const file = await write(
      'plain.js',
      `import { defineStrategy } from ${JSON.stringify(API)};
       export default defineStrategy({ name: 'plain', symbols: ['SPX.US'], period: 'day', onCandle: () => undefined });`,
    );

    expect(await loadStrategy(file)).toMatchObject({ name: 'plain', symbols: ['SPX.US'], period: 'day', params: {} });
  });

  it('loads .mts and .mjs strategies that import the package by name and their own local files', async () => {
    await write('sizes.ts', 'export const QUANTITY: number = 7;\n');
    const typed = await write(
      'named.mts',
      `import { defineStrategy } from 'longport-trader';
       import { QUANTITY } from './sizes.ts';
       export default defineStrategy({ name: 'named', params: { quantity: QUANTITY }, symbols: ['SPX.US'], onCandle: () => undefined });`,
    );
    const plain = await write(
      'named.mjs',
      `import { defineStrategy } from 'longport-trader';
       export default defineStrategy({ name: 'plain-mjs', symbols: ['SPX.US'], onCandle: () => undefined });`,
    );

    expect(await loadStrategy(typed)).toMatchObject({ name: 'named', params: { quantity: 7 } });
    expect(await loadStrategy(plain)).toMatchObject({ name: 'plain-mjs' });
  });

  it('names the file when it does not exist', async () => {
    const missing = join(folder, 'nope.ts');

    await expect(loadStrategy(missing)).rejects.toThrow(new StrategyLoadError(missing, 'no such strategy file'));
  });

  it('says a folder is not a strategy file', async () => {
    await expect(loadStrategy(folder)).rejects.toThrow(
      new StrategyLoadError(folder, 'is a folder: name a strategy file (.ts, .mts, .js or .mjs)'),
    );
  });

  it('names file:line:col of a syntax error and shows the line with a caret under the column', async () => {
    const file = await write('broken.ts', 'export default defineStrategy({ name: ');

    const error = await loadStrategy(file).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(StrategyLoadError);
    expect((error as Error).message).toBe(
      `${file}:1:39: Unexpected end of file\n  1 | export default defineStrategy({ name: \n    | ${' '.repeat(38)}^`,
    );
  });

  it('names the local import, line and column where TypeScript cannot be compiled', async () => {
    await write('helper.ts', 'export const size = 10;\nexport const half = size / 2;\nexport const oops = (value: number) => value as;\n');
    const file = await write('uses-helper.ts', `import { size } from './helper.ts';\nexport default size;`);

    const error = await loadStrategy(file).catch((caught: unknown) => caught);

    expect((error as Error).message).toMatch(new RegExp(`^${escapeForRegExp(join(folder, 'helper.ts'))}:3:48: `));
    expect((error as Error).message).toContain('\n  3 | export const oops = (value: number) => value as;\n');
  });

  it('names the file, line and missing package, with a hint, when an import cannot be resolved', async () => {
    const file = await write('needs.ts', `import 'no-such-package-for-strategies';\nexport default 1;`);

    await expect(loadStrategy(file)).rejects.toThrow(
      /needs\.ts:1:8: cannot find package "no-such-package-for-strategies" \(packages are resolved from the strategy file's folder/,
    );
  });

  it('names what the package exports when an import asks for a subpath it does not have', async () => {
    const file = await write('subpath.ts', `import { x } from 'longport-trader/nothing-here';\nexport default x;`);

    await expect(loadStrategy(file)).rejects.toThrow(
      /longport-trader has no export "longport-trader\/nothing-here" \(it exports longport-trader, longport-trader\/backtest/,
    );
  });

  it('names the file when a top-level throw stops it loading', async () => {
    const file = await write('throws.ts', `throw new Error('missing API key');`);

    await expect(loadStrategy(file)).rejects.toThrow(`${file}: cannot load: missing API key`);
  });

  it('refuses a file without a default export', async () => {
    const file = await write('named.ts', 'export const strategy = 1;');

    await expect(loadStrategy(file)).rejects.toThrow(`${file}: has no default export (expected \`export default defineStrategy({...})\`)`);
  });

  it('refuses a default export that is not a strategy', async () => {
    const file = await write('object.ts', `export default { name: 'x', run() {} };`);

    await expect(loadStrategy(file)).rejects.toThrow(`${file}: the default export is not a strategy`);
  });

  it('reports bad overrides and missing symbols at once as input errors naming the file', async () => {
    const file = await write(
      'nosymbols.ts',
      `import { defineStrategy } from ${JSON.stringify(API)};
       export default defineStrategy({ name: 'n', params: { fast: 1 }, onCandle: () => undefined });`,
    );

    const error = await loadStrategy(file, { period: 'fortnight', params: { fast: 'x', slow: '2' } }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toBe(
      `${file}: no symbols: set \`symbols\` in the strategy or pass --symbols; period "fortnight" is not one of ${'1m, 2m, 3m, 5m, 10m, 15m, 20m, 30m, 45m, 60m, 120m, 180m, 240m, day, week, month, quarter, year'}; ` +
        'unknown param slow (known: fast); param fast: "x" is not a number',
    );
  });

  it('loads the bundled example strategies', async () => {
    for (const name of ['sma-crossover', 'rsi-mean-reversion', 'breakout', 'dca']) {
      const loaded = await loadStrategy(fileURLToPath(new URL(`../../strategies/${name}.ts`, import.meta.url)));
      expect(loaded.name).toBe(name);
    }
  });
});

describe('isStrategyDefinition', () => {
  it('recognises a definition made by another copy of the package by its tag and shape', () => {
    const fromAnotherCopy = { tag: 'longport-trader/strategy@1', name: 'elsewhere', run: () => undefined };

    expect(isStrategyDefinition(fromAnotherCopy)).toBe(true);
    expect(isStrategyDefinition({ ...fromAnotherCopy, tag: 'something-else' })).toBe(false);
    expect(isStrategyDefinition({ ...fromAnotherCopy, run: 'not a function' })).toBe(false);
  });
});

function escapeForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
