// A temporary folder that is removed when the test that made it ends, or when the test process exits if it
// was made outside a test (a beforeAll hook): a suite run leaves nothing behind in the machine's tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

const outsideTests = new Set<string>();

process.on('exit', () => {
  for (const folder of outsideTests) rmSync(folder, { recursive: true, force: true });
});

export function madeTempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  try {
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  } catch {
    outsideTests.add(folder);
  }
  return folder;
}
