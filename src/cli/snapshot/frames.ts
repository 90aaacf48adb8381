// Stack frames of the snapshot's bundle, mapped back to the dist/ modules it was made from by the source map
// esbuild wrote beside it: strategy failures then tell the runtime's frames from the user's as on the plain
// start (src/strategy/failure.ts). The map is read on the first frame asked about, never at start-up.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import type { FrameMapper } from '../../strategy/frames.js';

export function bundleFrames(bundles: readonly string[]): FrameMapper {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (file: string): SourceMap | null => {
    let map = maps.get(file);
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(file, map);
    }
    return map;
  };
  return (location) => {
    if (!bundles.includes(location.file)) return undefined;
    const entry = mapOf(location.file)?.findEntry(location.line - 1, location.column - 1);
    if (entry === undefined || !('originalSource' in entry)) return undefined;
    return {
      file: resolve(dirname(location.file), entry.originalSource),
      line: entry.originalLine + 1,
      column: entry.originalColumn + 1,
    };
  };
}
