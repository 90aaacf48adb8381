// The packages bundled into a snapshot, each by its package.json as it was when the snapshot was built: one that
// changed since (an update in a project's node_modules) means the snapshot's copy of it is stale.
import type { Stats } from 'node:fs';
import { statSync } from 'node:fs';

export interface PackageFile {
  readonly file: string;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

export function identity(stats: Stats): Omit<PackageFile, 'file'> {
  return { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

/** True when every package.json is still the one the snapshot was built from (a few stat calls). */
export function packagesUnchanged(packages: readonly PackageFile[]): boolean {
  return packages.every((known) => {
    try {
      const now = identity(statSync(known.file));
      return now.ino === known.ino && now.size === known.size && now.mtimeMs === known.mtimeMs;
    } catch {
      return false;
    }
  });
}
