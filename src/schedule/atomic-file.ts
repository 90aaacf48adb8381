// Writes a file so readers see the old or the new content, never half of it (write a sibling, then rename).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** `mode` (e.g. 0o600 for secrets) applies from the first byte written. */
export function writeFileAtomic(file: string, content: string, mode?: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, mode === undefined ? undefined : { mode });
  renameSync(temporary, file);
}
