// Compiled strategies kept on disk by the content of their inputs: a strategy that has not changed since the
// last run is imported at once, without starting esbuild.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What one compiled strategy was made from. */
interface Manifest {
  /** Every file bundled into the output (the strategy and its local imports) and the hash of its content. */
  readonly inputs: readonly { readonly path: string; readonly hash: string }[];
  /** The files of the imports left as imports (packages, the installation), as file URLs. */
  readonly externals: readonly string[];
  readonly output: string;
}

/** Outputs older than the newest by this much are deleted (a process elsewhere may still be importing one). */
const STALE_OUTPUT_MS = 60 * 60 * 1000;

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['TRADER_CACHE_DIR'];
  if (explicit !== undefined && explicit !== '') return explicit;
  const base = env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(base, 'longport-trader', 'strategies');
}

export class CompileCache {
  readonly folder: string;

  /** `key` names what else the output depends on: the strategy's path and the installation it was made for. */
  constructor(cacheDir: string, key: string) {
    this.folder = join(cacheDir, createHash('sha256').update(key).digest('hex').slice(0, 24));
  }

  /** The cached output's URL when every input still has the content it was compiled from. */
  async lookup(): Promise<string | undefined> {
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await readFile(join(this.folder, 'manifest.json'), 'utf8')) as Manifest;
    } catch {
      return undefined;
    }
    for (const input of manifest.inputs) {
      const content = await readFile(input.path).catch(() => undefined);
      if (content === undefined || hashOf(content) !== input.hash) return undefined;
    }
    if (!manifest.externals.every((url) => existsSync(fileURLToPath(url)))) return undefined;
    const output = join(this.folder, manifest.output);
    return existsSync(output) ? pathToFileURL(output).href : undefined;
  }

  /** Stores an output and what it was made from; returns the URL to import it by. */
  async store(code: string, inputs: readonly { path: string; content: Buffer }[], externals: readonly string[]): Promise<string> {
    await mkdir(this.folder, { recursive: true });
    // Named by content: an edited strategy gets a new URL, so a long-running process imports the new code.
    const name = `${hashOf(code).slice(0, 16)}.mjs`;
    const output = join(this.folder, name);
    await writeAtomically(output, code);
    const manifest: Manifest = {
      inputs: inputs.map((input) => ({ path: input.path, hash: hashOf(input.content) })),
      externals,
      output: name,
    };
    await writeAtomically(join(this.folder, 'manifest.json'), JSON.stringify(manifest));
    await this.pruneOlderThan(output);
    return pathToFileURL(output).href;
  }

  private async pruneOlderThan(newest: string): Promise<void> {
    const newestMs = (await stat(newest)).mtimeMs;
    for (const name of await readdir(this.folder)) {
      const file = join(this.folder, name);
      if (!name.endsWith('.mjs') || file === newest) continue;
      const info = await stat(file).catch(() => undefined);
      if (info !== undefined && newestMs - info.mtimeMs > STALE_OUTPUT_MS) await rm(file, { force: true });
    }
  }
}

/** Where to cache when the default folder cannot be written (a read-only home). */
export function fallbackCacheDir(): string {
  return join(tmpdir(), `longport-trader-${process.getuid?.() ?? 'user'}`, 'strategies');
}

function hashOf(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

// Another process may read the same entry at the same time: it sees the old file or the new one, never half.
async function writeAtomically(file: string, content: string): Promise<void> {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, file);
}
