// The code a user runs: benches that call the library in process import it from dist/ (what `trader` runs;
// worker threads then load dist/ too), falling back to src/ when the build is missing.
import { existsSync } from 'node:fs';

const DIST = new URL('../../dist/', import.meta.url);

export const usingBuild = existsSync(new URL('index.js', DIST));

/** `path` under src/ ("research/optimize.js"), from dist/ when built. */
export function built<T>(path: string): Promise<T> {
  return import(new URL(path, usingBuild ? DIST : new URL('../../src/', import.meta.url)).href) as Promise<T>;
}
