// Compiles a strategy file (.ts, .mts, .js or .mjs, from any folder, with or without a package.json beside it)
// and its local imports into one ES module with esbuild. Packages stay imports, pointed at absolute files: the
// running installation for `longport-trader` and the packages it bundles (so the strategy shares the runtime's
// modules), any other package as found from the strategy's folder, else among the installation's own
// dependencies. The output carries a source map (stack traces name the .ts lines) and is cached by the content
// of its inputs.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Message, Metafile, Plugin } from 'esbuild';
import { CompileCache, defaultCacheDir, fallbackCacheDir } from './compile-cache.js';
import { ownImportMeta } from './own-import-meta.js';
import {
  INSTALLATION_ROOT,
  PACKAGE_NAME,
  installationVersion,
  installedModule,
  type RuntimeModules,
  resolveSelfImport,
  runtimeModulesInUse,
  vendoredModule,
} from './installation.js';

/** One problem esbuild found, where it is (1-based line and column) and the text of that line. */
export interface CompileProblem {
  readonly file: string | undefined;
  readonly line: number;
  readonly column: number;
  readonly lineText: string;
  readonly text: string;
}

/** The strategy (or one of its local imports) does not compile, or imports what cannot be found. */
export class CompileFailure extends Error {
  readonly problems: readonly CompileProblem[];

  constructor(problems: readonly CompileProblem[]) {
    super(problems.map((problem) => problem.text).join('; '));
    this.name = 'CompileFailure';
    this.problems = problems;
  }
}

export interface CompileOptions {
  /** Folder of compiled strategies (default: TRADER_CACHE_DIR, else ~/.cache/longport-trader/strategies). */
  readonly cacheDir?: string;
}

/** Compiles (or finds in the cache) the strategy at an absolute path; returns the URL to import. */
export async function compileStrategy(path: string, options: CompileOptions = {}): Promise<string> {
  // A rebuilt or reinstalled package may resolve imports differently (its vendored packages): a new entry.
  const entry = resolveSelfImport(PACKAGE_NAME)!;
  const modules = runtimeModulesInUse();
  const key = `${INSTALLATION_ROOT}\0${installationVersion()}\0${(await stat(entry)).mtimeMs}\0${path}${modules === undefined ? '' : `\0${modules.id}`}`;
  const cache = await writableCache(options.cacheDir, key);
  const cached = await cache.lookup();
  if (cached !== undefined) return cached;
  const compiled = await bundle(path, cache.folder, modules);
  return cache.store(compiled.code, compiled.inputs, compiled.externals);
}

// A read-only home (a service account, a container) falls back to the temporary folder.
async function writableCache(cacheDir: string | undefined, key: string): Promise<CompileCache> {
  const cache = new CompileCache(cacheDir ?? defaultCacheDir(), key);
  if (cacheDir !== undefined) return cache;
  try {
    await mkdir(cache.folder, { recursive: true });
    return cache;
  } catch {
    return new CompileCache(fallbackCacheDir(), key);
  }
}

interface Bundle {
  readonly code: string;
  readonly inputs: readonly { path: string; content: Buffer }[];
  readonly externals: readonly string[];
}

// outputFolder: where the output will be written, so the source map's relative paths lead to the sources.
async function bundle(path: string, outputFolder: string, modules: RuntimeModules | undefined): Promise<Bundle> {
  const { build } = await import('esbuild');
  const workingDir = dirname(path);
  const externals = new Set<string>();
  let result: Awaited<ReturnType<typeof build<{ metafile: true; write: false }>>>;
  try {
    result = await build({
      entryPoints: [path],
      absWorkingDir: workingDir,
      outfile: join(outputFolder, 'strategy.mjs'),
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'inline',
      sourcesContent: false,
      logLevel: 'silent',
      plugins: [packagesAsImports(externals, modules), ownImportMeta()],
    });
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (messages === undefined) throw error;
    throw new CompileFailure(messages.map((message) => problemOf(message, workingDir)));
  }
  const code = result.outputFiles[0]?.text ?? '';
  return { code, inputs: await inputsOf(result.metafile, workingDir), externals: [...externals] };
}

function problemOf(message: Message, workingDir: string): CompileProblem {
  const location = message.location;
  return {
    file: location === null ? undefined : resolve(workingDir, location.file),
    line: location?.line ?? 0,
    column: (location?.column ?? 0) + 1,
    lineText: location?.lineText ?? '',
    text: message.text,
  };
}

async function inputsOf(metafile: Metafile, workingDir: string): Promise<{ path: string; content: Buffer }[]> {
  const paths = Object.keys(metafile.inputs).map((input) => resolve(workingDir, input));
  return Promise.all(paths.map(async (input) => ({ path: input, content: await readFile(input) })));
}

/** Marks the resolver's own nested calls, so the plugin does not handle them again. */
const NESTED = Symbol('nested resolve');

// Every import that is not a local file of the user's stays an import, by absolute URL, so the compiled
// module (written to the cache folder) finds the same files the strategy's folder would; with runtime modules
// in use, a module of this installation is imported where those lead.
function packagesAsImports(externals: Set<string>, modules: RuntimeModules | undefined): Plugin {
  const asImport = async (file: string) => {
    const url = (await modules?.urlOf(file)) ?? pathToFileURL(file).href;
    externals.add(url);
    return { path: url, external: true };
  };
  return {
    name: 'packages-as-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData === NESTED) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        let self: string | undefined;
        try {
          self = resolveSelfImport(args.path);
        } catch (error) {
          return { errors: [{ text: (error as Error).message }] };
        }
        const own = self ?? vendoredModule(args.path);
        if (own !== undefined) return asImport(own);
        const nested = { kind: args.kind, importer: args.importer, pluginData: NESTED };
        let found = await build.resolve(args.path, { ...nested, resolveDir: args.resolveDir });
        const bare = isBare(args.path);
        if (found.errors.length > 0 && bare) found = await build.resolve(args.path, { ...nested, resolveDir: INSTALLATION_ROOT });
        if (found.errors.length > 0) {
          const text = bare
            ? `cannot find package "${args.path}" (packages are resolved from the strategy file's folder, then among longport-trader's own dependencies: install it in your project)`
            : `cannot find "${args.path}" from ${basename(args.importer)}`;
          return { errors: [{ text }] };
        }
        if (found.external) return { path: found.path, external: true };
        const installed = installedModule(found.path);
        if (installed !== undefined) return asImport(installed);
        if (found.path.includes(`${sep}node_modules${sep}`)) return asImport(found.path);
        return { path: found.path };
      });
    },
  };
}

function isBare(specifier: string): boolean {
  return !specifier.startsWith('.') && !isAbsolute(specifier) && !specifier.startsWith('file:');
}
