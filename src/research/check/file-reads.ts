// Which files the process opens while a strategy is loaded and checked: `trader check` cuts the history it
// hands the strategy, so a strategy that reads the data files itself escapes the look-ahead check, and
// that is worth failing it for. Node's fs has no hook for this; its path-taking read functions are wrapped
// while watching (ES-module imports of node:fs and node:fs/promises included), and restored after.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

type Wrapped = { readonly target: Record<string, unknown>; readonly name: string; readonly original: unknown };

const SYNC_AND_CALLBACK = ['openSync', 'open', 'readFileSync', 'readFile', 'createReadStream'] as const;
const PROMISES = ['open', 'readFile'] as const;

export class FileReads {
  private readonly opened = new Set<string>();
  private recording = false;
  private readonly wrapped: Wrapped[] = [];

  /** Starts watching, not yet recording (see resume). */
  static watch(): FileReads {
    const reads = new FileReads();
    reads.wrap(fs as unknown as Record<string, unknown>, SYNC_AND_CALLBACK);
    reads.wrap(fs.promises as unknown as Record<string, unknown>, PROMISES);
    syncBuiltinESMExports();
    return reads;
  }

  /** Records the files opened from now on. */
  resume(): void {
    this.recording = true;
  }

  /** Stops recording (while the checker reads files of its own). */
  pause(): void {
    this.recording = false;
  }

  /** Restores fs. */
  stop(): void {
    this.recording = false;
    for (const { target, name, original } of this.wrapped.splice(0)) target[name] = original;
    syncBuiltinESMExports();
  }

  /**
   * The files recorded that are `place` or lie inside it (a data file or folder), absolute, sorted; compared by
   * their real paths, so a link to them (/proc/self/cwd/…, a symlinked folder) is caught too.
   */
  within(place: string): string[] {
    const root = realPath(resolve(place));
    return [...this.opened]
      .filter((path) => {
        const inside = relative(root, realPath(path));
        return inside === '' || (!inside.startsWith(`..${sep}`) && inside !== '..' && !isAbsolute(inside));
      })
      .sort();
  }

  private wrap(target: Record<string, unknown>, names: readonly string[]): void {
    for (const name of names) {
      const original = target[name] as (...args: unknown[]) => unknown;
      const note = (path: unknown): void => {
        const file = pathOf(path);
        if (this.recording && file !== undefined) this.opened.add(file);
      };
      target[name] = function watched(this: unknown, path: unknown, ...rest: unknown[]): unknown {
        note(path);
        return original.call(this, path, ...rest);
      };
      this.wrapped.push({ target, name, original });
    }
  }
}

/** The absolute path of a path argument (string, Buffer or file URL); undefined for a descriptor. */
function pathOf(path: unknown): string | undefined {
  if (typeof path === 'string') return resolve(path);
  if (Buffer.isBuffer(path)) return resolve(path.toString());
  if (path instanceof URL && path.protocol === 'file:') return fileURLToPath(path);
  return undefined;
}

/** The path with its links resolved; as given when it no longer exists. */
function realPath(path: string): string {
  try {
    return fs.realpathSync.native(path);
  } catch {
    return path;
  }
}
