// Runs the real `trader` binary as a long-lived child (for streaming commands such as `watch`): read its
// stdout line by line, wait for a line, interrupt it like Ctrl-C.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { reapWhenTestEnds } from '../child-reaper.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface StreamingTrader {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[];
  stderr(): string;
  /** Resolves with the first stdout line matching, waiting for real output (with a guard timeout). */
  waitForLine(predicate: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Sends SIGINT and resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

export function spawnTrader(args: readonly string[], env: Readonly<Record<string, string>>): StreamingTrader {
  const child = spawn(process.execPath, ['bin/trader.js', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  reapWhenTestEnds(child);
  const lines: string[] = [];
  let partial = '';
  let errors = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => errors,
    waitForLine: (predicate, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = lines.find(predicate);
          if (found === undefined) return;
          listeners.delete(check);
          clearTimeout(guard);
          resolve(found);
        };
        // A guard so a broken run fails instead of hanging the suite; not part of the behaviour tested.
        const guard = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching line within ${timeoutMs} ms; stdout: ${lines.join('\n')}\nstderr: ${errors}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    interrupt: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}
