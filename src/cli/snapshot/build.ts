// Builds the start-up snapshot of one installation for one node binary: bundle dist/ (bundle.ts), let node
// build the snapshot from the bundle, start it once, then publish it where the launcher (bin/trader.js) looks.
// Run in the background after a plain start that found none (background.ts), and by scripts/build.mjs.
// `node dist/cli/snapshot/build.js` builds the snapshot of its own installation for the node on PATH.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForSnapshot, SNAPSHOT_PROFILES, type SnapshotProfile } from './bundle.js';
import type { SnapshotFacts } from './program.js';

/** One snapshot: where it goes and what identifies it, as the launcher computes them (TRADER_SNAPSHOT=where). */
export interface SnapshotTarget {
  /** Its folder: a PROFILE.blob and the PROFILE.cjs (and .map) it was built from for each profile, stamp, bridges/. */
  readonly entry: string;
  /** "ROOT|NODE|NODE_INODE NODE_SIZE|MAIN_INODE MAIN_SIZE": the launcher starts the snapshot when its stamp says this. */
  readonly stamp: string;
  /** The node binary the launcher starts (the first on PATH): the one to build with. */
  readonly node: string;
}

export type BuildOutcome = 'built' | 'busy' | 'failed';

const PROFILES = Object.keys(SNAPSHOT_PROFILES) as SnapshotProfile[];

/** A lock older than this is left over from a builder that died. */
const STALE_LOCK_MS = 5 * 60_000;

/** The lines of TRADER_SNAPSHOT_BUILD: where the snapshot goes, its stamp, the node binary. */
export function parseTarget(text: string): SnapshotTarget | undefined {
  const [entry, stamp, node] = text.trim().split('\n');
  return entry && stamp && node ? { entry, stamp, node } : undefined;
}

/** What the launcher finds: ready (it starts the snapshot), none (the node cannot take one), missing. */
export type SnapshotState = 'ready' | 'none' | 'missing';

/**
 * The snapshot an installation's launcher would start with the node on PATH, and its state, asked of the
 * launcher itself (TRADER_SNAPSHOT=where): one definition of what identifies a snapshot.
 */
export function snapshotOf(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): { target: SnapshotTarget; state: SnapshotState } | undefined {
  const result = spawnSync('sh', [join(root, 'bin', 'trader.js')], { env: { ...env, TRADER_SNAPSHOT: 'where' }, encoding: 'utf8' });
  const target = result.status === 0 ? parseTarget(result.stdout) : undefined;
  const state = result.stdout.trim().split('\n')[3] as SnapshotState | undefined;
  return target === undefined || state === undefined ? undefined : { target, state };
}

export async function buildSnapshot(target: SnapshotTarget): Promise<BuildOutcome> {
  const root = target.stamp.split('|', 1)[0]!;
  const lock = `${target.entry}.lock`;
  await mkdir(dirname(target.entry), { recursive: true });
  if (!(await acquire(lock))) return 'busy';
  try {
    return await buildLocked(target, root);
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function buildLocked(target: SnapshotTarget, root: string): Promise<BuildOutcome> {
  const { entry, stamp, node } = target;
  const work = `${entry}.${process.pid}.tmp`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    // Without them (a node whose Intl lacks a zone) the snapshot is built with no tables and no warm-up run, and
    // still starts faster than the plain start.
    const zones = join(work, 'zones.json');
    const tables = spawnSync(node, [join(root, 'dist', 'cli', 'snapshot', 'zone-tables.js')], { encoding: 'utf8' });
    await writeFile(zones, tables.status === 0 ? tables.stdout : '[]');
    const facts: SnapshotFacts = { stamp, root: `${root}/`, entry, zones };
    await mkdir(entry, { recursive: true });
    for (const profile of PROFILES) {
      // Built where it stays (stack frames name it; only people read it): the blob is what a start uses.
      const bundle = join(entry, `${profile}.cjs`);
      const blob = join(work, `${profile}.blob`);
      await bundleForSnapshot(root, profile, bundle);
      // No NODE_OPTIONS: V8 flags in it would bind the snapshot to them (the launcher starts snapshots without any).
      const env = { PATH: process.env['PATH'] ?? '', TRADER_SNAPSHOT_BAKE: JSON.stringify(facts) };
      const made = spawnSync(node, ['--snapshot-blob', blob, '--build-snapshot', bundle], { cwd: work, env, encoding: 'utf8' });
      if (made.status !== 0 || !existsSync(blob))
        return await give(target, `node --build-snapshot (${profile}) exited ${made.status}\n${made.stderr}`);
      // Started once before it is published: it must load in this node and print a help text.
      const args = SNAPSHOT_PROFILES[profile].check;
      const tried = spawnSync(node, ['--snapshot-blob', blob, '--', stamp, join(root, 'bin', 'trader.js'), ...args], {
        env: { PATH: env.PATH, HOME: process.env['HOME'] ?? '' },
        encoding: 'utf8',
      });
      if (tried.status !== 0 || !tried.stdout.startsWith('trader ')) {
        return await give(target, `the ${profile} snapshot did not start: exit ${tried.status}\n${tried.stderr}`);
      }
    }
    await rm(join(entry, 'bridges'), { recursive: true, force: true });
    for (const profile of PROFILES) await rename(join(work, `${profile}.blob`), join(entry, `${profile}.blob`));
    await rm(join(entry, 'error.log'), { force: true });
    // Last: the launcher reads the stamp first, so it never sees a stamp before its snapshot is in place.
    await writeAtomically(join(entry, 'stamp'), `${stamp}\n`);
    await pruneGone(dirname(entry));
    return 'built';
  } catch (error) {
    return give(target, error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * A stamp the launcher does not start ("none|…"): it runs the plain start without asking for another build
 * until the installation, its build or the node binary changes. Why is in error.log beside it.
 */
async function give(target: SnapshotTarget, why: string): Promise<BuildOutcome> {
  // An installation removed while its snapshot was being built (a temporary project) leaves nothing to keep.
  if (!existsSync(target.stamp.split('|', 1)[0]!)) {
    await rm(target.entry, { recursive: true, force: true });
    return 'failed';
  }
  await mkdir(target.entry, { recursive: true });
  await writeFile(join(target.entry, 'error.log'), `${why}\n`);
  for (const profile of PROFILES) await rm(join(target.entry, `${profile}.blob`), { force: true });
  await writeAtomically(join(target.entry, 'stamp'), `none|${target.stamp}\n`);
  return 'failed';
}

// mkdir is atomic: one builder per snapshot at a time, whatever number of processes asked for it.
async function acquire(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
    return true;
  } catch {
    const info = await stat(lock).catch(() => undefined);
    if (info === undefined || Date.now() - info.mtimeMs < STALE_LOCK_MS) return false;
    await rm(lock, { recursive: true, force: true });
    return mkdir(lock).then(
      () => true,
      () => false,
    );
  }
}

/** Removes the snapshots of installations or node binaries that no longer exist. */
async function pruneGone(folder: string): Promise<void> {
  for (const name of await readdir(folder).catch(() => [])) {
    const stampFile = join(folder, name, 'stamp');
    const line = await readFile(stampFile, 'utf8').catch(() => undefined);
    if (line === undefined) continue;
    const [root, node] = line.replace(/^none\|/, '').split('|');
    if (root !== undefined && node !== undefined && (!existsSync(root) || !existsSync(node))) {
      await rm(join(folder, name), { recursive: true, force: true });
    }
  }
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const given = process.env['TRADER_SNAPSHOT_BUILD'];
  const target = given === undefined ? snapshotOf(fileURLToPath(new URL('../../../', import.meta.url)))?.target : parseTarget(given);
  if (target === undefined) {
    process.stderr.write('trader: cannot tell where the start-up snapshot goes (is HOME set?)\n');
    process.exit(1);
  }
  const outcome = await buildSnapshot(target);
  if (given === undefined) process.stderr.write(`start-up snapshot ${outcome}: ${target.entry}\n`);
  process.exitCode = outcome === 'built' || outcome === 'busy' ? 0 : 1;
}
