// The content hash of a strategy as it runs: its compiled bundle (the file and its local imports) and its
// resolved default params. A `--resume` file records it, so trials of an edited strategy are never mixed in.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileStrategy } from '../strategy/compile.js';

/** `sha256:…` of the bundle of `file` (compiled already when the strategy was loaded: a cache hit). */
export async function strategyHash(file: string): Promise<string> {
  const url = await compileStrategy(resolve(file));
  return bundleHash(await readFile(fileURLToPath(url), 'utf8'));
}

/**
 * Where the bundle was written and which copy of the runtime it imports (dist/ on a plain start, the start-up
 * snapshot's bridges on the next) are not the strategy's content: its source map and import URLs are left out.
 */
export function bundleHash(code: string): string {
  const content = code
    .replace(/\n\/\/# sourceMappingURL=[^\n]*\n?$/, '\n')
    .replace(/"file:\/\/[^"]*\/([^/".]+)(\.[^/"]*)?"/g, (_, name: string) => `"file:${name}"`);
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}
