// Writes a file so readers see the old or the new content, never half of it (write a sibling, then rename).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeFileAtomic(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
}
