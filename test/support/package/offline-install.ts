// What lets a test install the packed package into a user project with no network, as `npm install --offline`
// would for a user whose npm cache holds the dependencies: a package-lock.json pinning every dependency to the
// version and integrity this checkout's lockfile has (so npm reads tarballs from its cache and needs no registry
// metadata), and better-sqlite3's native part as a local prebuild (prebuild-install's documented offline source)
// instead of a compile.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

interface LockEntry {
  readonly version?: string;
  readonly dev?: boolean;
  readonly [key: string]: unknown;
}

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly bin?: Record<string, string>;
  readonly engines?: Record<string, string>;
}

/**
 * Points the project's dependency on the package at the tarball and writes its package-lock.json: the tarball,
 * then every package this checkout installs for production, then the project's own dev tools.
 */
export async function pinOffline(projectDir: string, repoDir: string, tarball: string): Promise<void> {
  const repoLock = JSON.parse(await readFile(join(repoDir, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const ours = JSON.parse(await readFile(join(repoDir, 'package.json'), 'utf8')) as Manifest;
  const project = JSON.parse(await readFile(join(projectDir, 'package.json'), 'utf8')) as Manifest;
  const spec = `file:../${basename(tarball)}`;
  const manifest = { ...project, dependencies: { ...project.dependencies, [ours.name]: spec } };
  await writeFile(join(projectDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const integrity = `sha512-${createHash('sha512')
    .update(await readFile(tarball))
    .digest('base64')}`;
  const packages: Record<string, unknown> = {
    '': { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies, devDependencies: manifest.devDependencies },
    [`node_modules/${ours.name}`]: {
      version: ours.version,
      resolved: spec,
      integrity,
      dependencies: ours.dependencies,
      bin: ours.bin,
      engines: ours.engines,
    },
  };
  // The project's dev tools and what they depend on (@types/node needs undici-types).
  const devTools = new Set<string>();
  const pending = Object.keys(manifest.devDependencies ?? {});
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const path = `node_modules/${name}`;
    if (devTools.has(path)) continue;
    devTools.add(path);
    pending.push(...Object.keys((repoLock.packages[path]?.dependencies as Record<string, string> | undefined) ?? {}));
  }
  for (const [path, entry] of Object.entries(repoLock.packages)) {
    if (path === '' || (entry.dev === true && !devTools.has(path))) continue;
    packages[path] = entry;
  }
  const lock = { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages };
  await writeFile(join(projectDir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}

/** A folder with this checkout's compiled better-sqlite3 packed the way prebuild-install looks for it. */
export async function localPrebuilds(repoDir: string, folder: string): Promise<Record<string, string>> {
  const packageDir = join(repoDir, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const libc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime ? '' : 'musl';
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${libc}-${process.arch}.tar.gz`;
  await mkdir(folder, { recursive: true });
  execFileSync('tar', ['-czf', join(folder, name), '-C', packageDir, 'build/Release/better_sqlite3.node']);
  return { npm_config_better_sqlite3_local_prebuilds: folder };
}
