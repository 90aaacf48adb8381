// What a start-up snapshot runs. While it is built: note what it was built for, and name the function node
// calls when a process starts from it. When a process starts from it: make the process look as on the plain
// start (argv, execArgv, a real require), hand strategies the snapshot's modules, run the CLI's main().
import { readFileSync } from 'node:fs';
import type { Module } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import type { ZoneTable } from '../../domain/time-zone.js';
import { useFrameMapper } from '../../strategy/frames.js';
import { useRuntimeModules } from '../../strategy/installation.js';
import { buildAfterExit } from './background.js';
import { bundleFrames } from './frames.js';
import { type ModuleRegistry, snapshotModules } from './modules.js';
import { type PackageFile, packagesUnchanged } from './packages.js';

export interface SnapshotProgram {
  readonly main: (argv: readonly string[]) => Promise<void>;
  /** Runs once while the snapshot is built, so the code it runs is compiled in the snapshot. */
  readonly warmUp: () => Promise<unknown>;
  /** The bundle's file (its stack frames name it; its source map is beside it). */
  readonly bundle: string;
  /** Swaps the bundle's require for the installation's (see the banner in bundle.ts). */
  readonly useRuntimeRequire: (require: NodeJS.Require) => void;
  readonly modules: ModuleRegistry;
  /** The packages bundled in, as they were when it was built. */
  readonly packages: readonly PackageFile[];
  /** Takes the market zones' rules into the snapshot (profiles that read candle times). */
  readonly seedZones?: (tables: readonly ZoneTable[]) => void;
}

/** What the builder (build.ts) tells the snapshot about itself, in TRADER_SNAPSHOT_BAKE while it is built. */
export interface SnapshotFacts {
  /** The line the launcher (bin/trader.js) computes for this installation, node binary and build. */
  readonly stamp: string;
  /** The installation's folder, with a trailing separator. */
  readonly root: string;
  /** The folder of the snapshot (its bridges go there). */
  readonly entry: string;
  /** A JSON file of the market zones' tables, made by zone-tables.js with the snapshot's node. */
  readonly zones: string;
}

export function prepareSnapshot(program: SnapshotProgram): void {
  const facts = JSON.parse(process.env['TRADER_SNAPSHOT_BAKE'] ?? 'null') as SnapshotFacts | null;
  if (facts === null) throw new Error('TRADER_SNAPSHOT_BAKE is not set: build snapshots with src/cli/snapshot/build.ts');
  // Commands outside the snapshot, and strategies, are ES modules the snapshot's code loads with require().
  if (process.features.require_module !== true)
    throw new Error(`node ${process.version} cannot require() ES modules (20.19 and later can)`);
  program.seedZones?.(JSON.parse(readFileSync(facts.zones, 'utf8')) as ZoneTable[]);
  void program.warmUp();
  v8.startupSnapshot.setDeserializeMainFunction(() => {
    void startFromSnapshot(program, facts);
  });
}

async function startFromSnapshot(program: SnapshotProgram, facts: SnapshotFacts): Promise<void> {
  // The launcher runs `node --snapshot-blob FILE -- STAMP SELF ARGS…`; the plain start has [node, SELF, ARGS…].
  const [node, stamp, self, ...args] = process.argv;
  // Node makes a script's path absolute in argv[1].
  process.argv = [node!, resolve(self!), ...args];
  process.execArgv = [];
  const { createRequire } = process.getBuiltinModule('node:module') as typeof Module;
  const dist = join(facts.root, 'dist/');
  const require = createRequire(join(dist, 'cli', 'main.js'));
  program.useRuntimeRequire(require);
  // Loaded on first use (a strategy; the fallback below): starting the module loader costs a few milliseconds.
  let importer: { importModule: (url: string) => Promise<Record<string, unknown>> } | undefined;
  const importModule = (url: string) => {
    importer ??= require('./snapshot/import-module.mjs') as NonNullable<typeof importer>;
    return importer.importModule(url);
  };
  // Replaced by a newer build between the launcher's check and this start, or a bundled package updated since
  // the snapshot was built: run the installation's own files, as the plain start does (and, for a package
  // update, build the snapshot again once this command has ended).
  const current = stamp === facts.stamp;
  if (!current || !packagesUnchanged(program.packages)) {
    if (current) buildAfterExit([facts.entry, facts.stamp, process.execPath].join('\n'));
    const { main } = (await importModule(pathToFileURL(join(dist, 'cli', 'main.js')).href)) as Pick<SnapshotProgram, 'main'>;
    return main(args);
  }
  useRuntimeModules(
    snapshotModules({ dist, bridges: join(facts.entry, 'bridges'), id: facts.stamp, registry: program.modules, importModule }),
  );
  useFrameMapper(bundleFrames([program.bundle]));
  return program.main(args);
}
