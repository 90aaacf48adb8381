#!/usr/bin/env node
// Builds dist/ from src/ (run by `npm ci` through `prepare`, and by `npm run build`): every TypeScript file
// transpiled on its own by esbuild (same layout, imports kept), other files under src/ copied, the packages of
// VENDORED bundled into one ES module each (dist/vendor/), and the .d.ts declarations emitted by tsc.
// `--if-stale` builds only when src/ changed since the last build; `--no-types` leaves the declarations out
// (what the e2e tests need is the JavaScript). Run as a script, it then builds the start-up snapshot of this
// checkout when the launcher finds none ready. Progress goes to stderr: `npm pack --json` owns stdout.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
/** Besides src/, the files whose change makes a build stale. */
const BUILD_INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];
const STAMPS = { js: join(DIST, '.build-js.json'), types: join(DIST, '.build-types.json') };
/**
 * Packages loaded from one bundled file instead of hundreds of modules (rxjs: ~0.15 s less start-up, trading-
 * signals ~0.2 s, see bench/README.md). dist/ imports them from dist/vendor/, and so do compiled strategies
 * (src/strategy/installation.ts), so strategy and runtime share one copy.
 */
const VENDORED = ['rxjs', 'temporal-polyfill', 'trading-signals', 'zod'];

/**
 * Builds what is stale (or everything with `force`); returns which parts were built.
 * @param {{ types?: boolean, force?: boolean, log?: (line: string) => void }} options
 */
export async function build(options = {}) {
  const { types = true, force = false, log = () => undefined } = options;
  const sources = await listFiles(SRC);
  const fingerprint = await fingerprintOf(sources);
  const built = { js: false, types: false };
  if (force || (await readStamp(STAMPS.js)) !== fingerprint) {
    const started = performance.now();
    await buildJavaScript(sources);
    await writeFile(STAMPS.js, JSON.stringify({ fingerprint }));
    built.js = true;
    log(`dist/: ${sources.length} files from src/ in ${Math.round(performance.now() - started)} ms`);
  }
  if (types && (force || (await readStamp(STAMPS.types)) !== fingerprint)) {
    const started = performance.now();
    emitDeclarations();
    await writeFile(STAMPS.types, JSON.stringify({ fingerprint }));
    built.types = true;
    log(`dist/: declarations in ${Math.round(performance.now() - started)} ms`);
  }
  return built;
}

async function buildJavaScript(sources) {
  const { build: esbuild } = await import('esbuild');
  const typescript = sources.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  const others = sources.filter((file) => !file.endsWith('.ts'));
  await removeOrphans(new Set(sources.map((file) => relative(SRC, file))));
  // Bundling with every import external is a transpile of each file that can still rewrite its imports.
  await esbuild({
    entryPoints: typescript,
    outdir: DIST,
    outbase: SRC,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    plugins: [importsStayImports()],
  });
  for (const name of VENDORED) {
    await esbuild({
      stdin: { contents: `export * from '${name}';`, resolveDir: ROOT },
      outfile: join(DIST, 'vendor', `${name}.js`),
      bundle: true,
      format: 'esm',
      // Neutral, with the ES2015 condition: rxjs' "node" condition would pick its CommonJS build.
      platform: 'neutral',
      conditions: ['es2015', 'import'],
      mainFields: ['es2015', 'module', 'main'],
      // Less to parse at every start (a fifth less for zod); names are kept, so stack traces still read.
      minifyWhitespace: true,
      minifySyntax: true,
      target: 'node20',
      logLevel: 'warning',
    });
  }
  for (const file of others) {
    const target = join(DIST, relative(SRC, file));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(file, target);
  }
}

/**
 * The start-up snapshot of this checkout for the node on PATH (src/cli/snapshot/), unless the launcher finds one
 * ready: what makes `trader` start fast from `npm ci` on. A failure leaves the plain start and fails nothing.
 */
async function buildStartupSnapshot(log) {
  if (process.platform === 'win32' || process.env.TRADER_SNAPSHOT === 'off') return;
  const started = performance.now();
  try {
    const { buildSnapshot, snapshotOf } = await import(pathToFileURL(join(DIST, 'cli', 'snapshot', 'build.js')).href);
    const found = snapshotOf(ROOT);
    if (found === undefined || found.state === 'ready') return;
    const outcome = await buildSnapshot(found.target);
    log(`start-up snapshot ${outcome} in ${Math.round(performance.now() - started)} ms: ${found.target.entry}`);
  } catch (error) {
    log(`start-up snapshot not built: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function importsStayImports() {
  return {
    name: 'imports-stay-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (!VENDORED.includes(args.path)) return { path: args.path, external: true };
        const vendored = relative(dirname(args.importer), join(SRC, 'vendor', `${args.path}.js`))
          .split(sep)
          .join('/');
        return { path: vendored.startsWith('.') ? vendored : `./${vendored}`, external: true };
      });
    },
  };
}

// A file deleted or renamed in src/ must not live on in dist/ (a stale module could still be imported).
async function removeOrphans(sourceNames) {
  const existing = await listFiles(DIST).catch(() => []);
  for (const file of existing) {
    const name = relative(DIST, file);
    if (name.startsWith('.') || name.startsWith(`vendor${sep}`)) continue;
    const source = name.replace(/\.d\.ts$/, '.ts').replace(/\.js$/, '.ts');
    if (!sourceNames.has(source) && !sourceNames.has(name)) await rm(file);
  }
}

function emitDeclarations() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`tsc could not emit the declarations (exit status ${result.status})`);
}

// Paths, sizes and modification times: cheap to read, and any edit, checkout, addition or removal changes it.
async function fingerprintOf(sources) {
  const hash = createHash('sha256');
  const inputs = [...sources, ...BUILD_INPUTS.map((name) => join(ROOT, name))];
  for (const file of inputs) {
    const info = await stat(file).catch(() => undefined);
    hash.update(`${relative(ROOT, file)}\0${info?.size ?? -1}\0${info?.mtimeMs ?? -1}\n`);
  }
  return hash.digest('hex');
}

async function readStamp(file) {
  try {
    return JSON.parse(await readFile(file, 'utf8')).fingerprint;
  } catch {
    return undefined;
  }
}

async function listFiles(folder) {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const flags = new Set(process.argv.slice(2));
  const unknown = [...flags].filter((flag) => !['--if-stale', '--no-types'].includes(flag));
  if (unknown.length > 0) {
    process.stderr.write(`usage: node scripts/build.mjs [--if-stale] [--no-types] (unknown: ${unknown.join(' ')})\n`);
    process.exit(2);
  }
  try {
    const built = await build({
      types: !flags.has('--no-types'),
      force: !flags.has('--if-stale'),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    if (!built.js && !built.types) process.stderr.write('dist/ is up to date\n');
    await buildStartupSnapshot((line) => process.stderr.write(`${line}\n`));
  } catch (error) {
    process.stderr.write(`build failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
