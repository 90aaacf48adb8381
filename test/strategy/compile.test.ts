import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileStrategy } from '../../src/strategy/compile.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let folder: string;
let cacheDir: string;

async function write(name: string, text: string): Promise<string> {
  const file = join(folder, name);
  await writeFile(file, text);
  return file;
}

async function compiled(url: string): Promise<string> {
  return readFile(fileURLToPath(url), 'utf8');
}

describe('compileStrategy', () => {
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'strategy-compile-'));
    cacheDir = join(folder, 'cache');
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reuses the compiled output while no input changed, without compiling again', async () => {
    const file = await write('same.ts', 'export default 1 as number;\n');
    const first = await compileStrategy(file, { cacheDir });
    const manifest = join(fileURLToPath(new URL('.', first)), 'manifest.json');
    const written = (await stat(manifest)).mtimeMs;

    const second = await compileStrategy(file, { cacheDir });

    expect(second).toBe(first);
    expect((await stat(manifest)).mtimeMs).toBe(written);
  });

  it('compiles again, to a new module, when a local import changes', async () => {
    await write('size.ts', 'export const SIZE = 1;\n');
    const file = await write('entry.ts', "import { SIZE } from './size.js';\nexport default SIZE;\n");
    const before = await compileStrategy(file, { cacheDir });
    await write('size.ts', 'export const SIZE = 2;\n');

    const after = await compileStrategy(file, { cacheDir });

    expect(after).not.toBe(before);
    expect(((await import(after)) as { default: number }).default).toBe(2);
  });

  it('bundles local files and leaves packages as imports of absolute files', async () => {
    await write('local.ts', 'export const LOCAL_MARKER = 42;\n');
    const file = await write(
      'mixed.ts',
      "import { map } from 'rxjs';\nimport { defineStrategy } from 'longport-trader';\nimport { LOCAL_MARKER } from './local.js';\nexport default [map, defineStrategy, LOCAL_MARKER];\n",
    );

    const code = await compiled(await compileStrategy(file, { cacheDir }));

    expect(code).toContain('LOCAL_MARKER = 42');
    // rxjs is not beside the file (a bare temporary folder): it comes from the installation's own dependencies.
    expect(code).toContain(`from "${pathToFileURL(join(ROOT, 'node_modules/rxjs/')).href}`);
    // Running from source (as here), the package is its source; the binary maps it to dist/index.js.
    expect(code).toContain(`from "${pathToFileURL(join(ROOT, 'src/index.ts')).href}"`);
  });

  it("keeps an old-style relative import of the installation's modules as an import instead of a copy", async () => {
    const strategy = await write(
      'old-style.ts',
      `import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.js'))};\nexport default defineStrategy;\n`,
    );

    const code = await compiled(await compileStrategy(strategy, { cacheDir }));

    expect(code).toContain(`from "${pathToFileURL(join(ROOT, 'src/strategy/index.ts')).href}"`);
    expect(code).not.toContain('function defineStrategy');
  });

  it('maps the compiled code back to the source file, so stack traces name the .ts lines', async () => {
    const file = await write('mapped.ts', 'const answer: number = 42;\nexport default answer;\n');

    const url = await compileStrategy(file, { cacheDir });

    const inline = /sourceMappingURL=data:application\/json;base64,(\S+)/.exec(await compiled(url));
    const map = JSON.parse(Buffer.from(inline![1]!, 'base64').toString('utf8')) as { sources: string[] };
    expect(map.sources.map((source) => fileURLToPath(new URL(source, url)))).toEqual([file]);
  });

  it("gives each file its own import.meta (url, dirname, filename), not the cached bundle's", async () => {
    await mkdir(join(folder, 'lib'));
    await write('settings.json', '{"fast": 7}');
    await write('lib/limits.json', '{"max": 3}');
    await write(
      'lib/limits.ts',
      "import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\nexport const max: number = JSON.parse(readFileSync(join(import.meta.dirname, 'limits.json'), 'utf8')).max;\nexport const where = import.meta.filename;\n",
    );
    const file = await write(
      'reads.ts',
      "import { readFileSync } from 'node:fs';\nimport { max, where } from './lib/limits.js';\nconst settings = JSON.parse(readFileSync(new URL('./settings.json', import.meta.url), 'utf8'));\nexport default { fast: settings.fast, max, where, url: import.meta.url };\n",
    );

    const url = await compileStrategy(file, { cacheDir });

    expect(url.startsWith(pathToFileURL(cacheDir).href)).toBe(true);
    expect(((await import(url)) as { default: unknown }).default).toEqual({
      fast: 7,
      max: 3,
      where: join(folder, 'lib', 'limits.ts'),
      url: pathToFileURL(file).href,
    });
  });
});
