// The one CommonJS script a start-up snapshot is built from (node --build-snapshot takes a single file), bundled
// by esbuild from dist/ (the same code the plain start runs) with the packages its modules import as they load
// (BUNDLED_PACKAGES). Every other package stays a require() made at run time, and so do the modules of commands
// outside the snapshot: they load from dist/'s own files, as on the plain start.
import { readFile, stat } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildOptions, Plugin } from 'esbuild';
import { identity, type PackageFile } from './packages.js';

// The backtest command, and the package's root export for strategies.
const BACKTEST = {
  commands: [{ path: 'backtest/backtest-command.js', evaluated: true }],
  modules: ['index.js'],
  warmUp: [['--help'], ['backtest']],
  check: ['backtest', '--help'],
  backtests: true,
} as const;

/**
 * Each snapshot holds what one kind of command needs: a bigger heap costs every start its deserialization
 * (the backtest snapshot's 9 MB start ~20 ms later than the CLI's 5 MB here), so `main` (the CLI and yargs:
 * --help and every command not named here) stays small. The launcher picks the snapshot by the command's first
 * word (bin/trader.js).
 */
export const SNAPSHOT_PROFILES = {
  main: { commands: [], modules: [], warmUp: [['--help']], check: ['--help'], backtests: false },
  backtest: BACKTEST,
  // The same with the research commands, which run the same backtests (their modules load piscina and bullmq,
  // so they are evaluated when they run; `optimize`'s help is not laid out, as that would evaluate its module);
  // apart, as they would make every backtest start ~15 ms later.
  research: {
    ...BACKTEST,
    commands: [
      ...BACKTEST.commands,
      { path: 'research/optimize-command.js', evaluated: false },
      { path: 'research/walkforward-command.js', evaluated: false },
      { path: 'research/check-command.js', evaluated: false },
    ],
    check: ['optimize', '--help'],
  },
  // The catalog's modules load Node's http and better-sqlite3 as they are evaluated, which a snapshot cannot
  // hold: they are bundled and evaluated when the command runs; zod (the slowest to evaluate) is in the heap.
  catalog: {
    commands: [{ path: 'catalog/serve-command.js', evaluated: false }],
    modules: ['vendor/zod.js'],
    warmUp: [['--help']],
    check: ['catalog', 'serve', '--help'],
    backtests: false,
  },
} as const satisfies Record<string, Profile>;

interface Profile {
  /**
   * Command modules (under dist/cli/) bundled into the snapshot, evaluated while it is built or, when they
   * load what a snapshot cannot hold, when the command runs; other commands load from their files.
   */
  readonly commands: readonly { readonly path: string; readonly evaluated: boolean }[];
  /** Other dist/ modules evaluated into the snapshot. */
  readonly modules: readonly string[];
  /**
   * Arguments whose help text (yargs' getHelp(), which prints nothing and runs no handler) is laid out while the
   * snapshot is built, so the code doing it is compiled in the snapshot. Running a command would leave its
   * state in the snapshot.
   */
  readonly warmUp: readonly (readonly string[])[];
  /** Arguments of the run that tries a new snapshot before it is published (prints a help text). */
  readonly check: readonly string[];
  /**
   * Whether it runs backtests: the market zones' rules are then taken into it (zone-tables.ts), and a short
   * backtest runs while it is built, its code then compiled (warm-up-backtest.ts).
   */
  readonly backtests: boolean;
}

export type SnapshotProfile = keyof typeof SNAPSHOT_PROFILES;

/**
 * Packages bundled into the snapshot (with what they import): those a module in it imports at its top, which the
 * snapshot's builder cannot require (jsonc-parser: the risk config's). Every other package is required at run time.
 */
const BUNDLED_PACKAGES: ReadonlySet<string> = new Set(['yargs', 'decimal.js', 'cli-progress', 'jsonc-parser']);

/** The generated entry's name in esbuild's messages and metafile. */
const ENTRY_NAME = 'snapshot-entry.js';

const BUILTINS: ReadonlySet<string> = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/**
 * Code ahead of the bundle. `require` becomes swappable: the snapshot builder's own (built-in modules only) while
 * the snapshot is made, the real one of the installation once the snapshot runs (__useRuntimeRequire). Strict
 * mode as in the ES modules the bundle is made from. __distUrl stands for import.meta.url of a dist/ module.
 */
function banner(distRoot: string): string {
  return [
    '"use strict";',
    'var __builderRequire = require;',
    'var __runtimeRequire;',
    'require = Object.assign((id) => (__runtimeRequire ?? __builderRequire)(id), { resolve: (id, options) => __runtimeRequire.resolve(id, options) });',
    'function __useRuntimeRequire(real) { __runtimeRequire = real; }',
    `var __distRoot = ${JSON.stringify(distRoot)};`,
    'function __distUrl(path) { return __builderRequire("node:url").pathToFileURL(__distRoot + path).href; }',
  ].join('\n');
}

/** Writes the bundle of a profile for the installation at `root` (its dist/ built) to `outfile`. */
export async function bundleForSnapshot(root: string, profile: SnapshotProfile, outfile: string): Promise<void> {
  const chosen: Profile = SNAPSHOT_PROFILES[profile];
  const { build } = await import('esbuild');
  const dist = join(root, 'dist', sep);
  const options: BuildOptions = {
    outfile,
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Lowered to require(): the snapshot's own code cannot use import() (no loader is attached to it).
    supported: { 'dynamic-import': false },
    // A quarter smaller blobs: the vendored bundles come out of esbuild re-indented otherwise.
    minifyWhitespace: true,
    minifySyntax: true,
    // esbuild renames clashing top-level names across modules; function and class names must stay what they are.
    keepNames: true,
    legalComments: 'none',
    // Beside the bundle: the snapshot maps its stack frames back to dist/'s files with it (frames.ts).
    sourcemap: 'external',
    sourcesContent: false,
    logLevel: 'silent',
    metafile: true,
    banner: { js: banner(dist) },
    // jsonc-parser's main file is a UMD wrapper whose requires esbuild cannot follow: its ES module build instead.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    plugins: [
      snapshotModules(
        dist,
        chosen.commands.map((command) => command.path),
      ),
    ],
  };
  // First pass: which dist/ modules the bundle holds; the second lists them all for strategies (src/cli/snapshot/modules.ts).
  const first = await build({ ...options, write: false, stdin: entry(dist, chosen, [], []) });
  const inputs = Object.keys(first.metafile!.inputs).map((input) => join(root, input));
  await build({ ...options, stdin: entry(dist, chosen, bundledModules(inputs, dist), await bundledPackages(inputs)) });
}

function entry(
  dist: string,
  profile: Profile,
  modules: readonly string[],
  packages: readonly PackageFile[],
): { contents: string; resolveDir: string; sourcefile: string } {
  const registry = modules.map((path) => `  ${JSON.stringify(path)}: () => import(${JSON.stringify(`./${path}`)}),`);
  const contents = [
    "import { prepareSnapshot } from './cli/snapshot/program.js';",
    "import { createParser, main } from './cli/main.js';",
    ...profile.commands.filter((command) => command.evaluated).map((command) => `import ${JSON.stringify(`./cli/${command.path}`)};`),
    ...profile.modules.map((path) => `import ${JSON.stringify(`./${path}`)};`),
    ...(profile.backtests
      ? ["import { ZoneRules } from './domain/time-zone.js';", "import { warmUpBacktest } from './cli/snapshot/warm-up-backtest.js';"]
      : []),
    `const warmUp = async () => { for (const argv of ${JSON.stringify(profile.warmUp)}) await createParser(argv, 110).getHelp();${profile.backtests ? ' await warmUpBacktest();' : ''} };`,
    `prepareSnapshot({ main, warmUp, bundle: __filename, useRuntimeRequire: __useRuntimeRequire, packages: ${JSON.stringify(packages)},${profile.backtests ? ' seedZones: (tables) => { for (const table of tables) ZoneRules.seed(table); },' : ''} modules: {\n${registry.join('\n')}\n} });`,
  ].join('\n');
  return { contents, resolveDir: dist, sourcefile: ENTRY_NAME };
}

function bundledModules(inputs: readonly string[], dist: string): string[] {
  return inputs
    .filter((file) => file.startsWith(dist) && file.endsWith('.js') && file !== join(dist, ENTRY_NAME))
    .map((file) => relative(dist, file).split(sep).join('/'))
    .sort();
}

/**
 * The package.json of each package bundled, as found now: a package updated after the snapshot was built
 * (`npm update` in a project leaves longport-trader's own files alone) makes the snapshot's copy stale.
 */
async function bundledPackages(inputs: readonly string[]): Promise<PackageFile[]> {
  const folders = new Set<string>();
  for (const input of inputs) {
    const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/@]+)[\\/]/.exec(input);
    if (match !== null) folders.add(match[1]!);
  }
  const files = [...folders].sort().map((folder) => join(folder, 'package.json'));
  return Promise.all(files.map(async (file) => ({ file, ...identity(await stat(file)) })));
}

function snapshotModules(dist: string, commands: readonly string[]): Plugin {
  return {
    name: 'snapshot-modules',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (BUILTINS.has(args.path)) return { path: args.path, external: true };
        const fromDist = args.importer.startsWith(dist) || !args.importer.startsWith(sep);
        // A command's module outside the snapshot: required (an ES module, require(esm)) from its file at run time.
        if (fromDist && args.kind === 'dynamic-import' && args.importer.startsWith(join(dist, 'cli', 'commands', sep))) {
          const file = join(dirname(args.importer), args.path);
          if (!commands.some((path) => file === join(dist, 'cli', path))) return { path: file, external: true };
        }
        if (fromDist && !args.path.startsWith('.') && !BUNDLED_PACKAGES.has(packageName(args.path))) {
          return { path: args.path, external: true };
        }
        return undefined;
      });
      // The few spots where a module finds files or packages from where it is, rewritten to say so in the bundle.
      build.onLoad({ filter: /\.(c|m)?js$/ }, async (args) => {
        const code = await readFile(args.path, 'utf8');
        if (args.path.startsWith(dist)) {
          const path = JSON.stringify(relative(dist, args.path).split(sep).join('/'));
          // createRequire(import.meta.url): resolves packages from dist/, as the run-time require does.
          const rewritten = code
            .replaceAll('createRequire(import.meta.url)', 'require')
            .replaceAll('import.meta.url', `__distUrl(${path})`);
          return { contents: rewritten, loader: 'js' };
        }
        // A bundled package reads its own files (yargs its locales) from where it is installed.
        const where = `var __filename = ${JSON.stringify(args.path)}, __dirname = ${JSON.stringify(dirname(args.path))};\n`;
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return { contents: where + code.replaceAll('import.meta.url', url), loader: 'js' };
      });
    },
  };
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
