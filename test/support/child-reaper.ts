// Child processes a test starts are killed when that test ends (or when the test process exits), so a test
// that fails or times out while a `trader` child runs never leaves the child running on the machine.
import type { ChildProcess } from 'node:child_process';
import { onTestFinished } from 'vitest';

const living = new Set<ChildProcess>();

process.on('exit', () => {
  for (const child of living) child.kill('SIGKILL');
});

export function reapWhenTestEnds(child: ChildProcess): void {
  living.add(child);
  child.once('exit', () => living.delete(child));
  try {
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  } catch {
    // Started outside a test (a beforeAll hook): the exit handler above still reaps it.
  }
}
