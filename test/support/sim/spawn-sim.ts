// Runs `trader sim` as a real child process: waits for its six export lines (or its JSON) on stdout, then
// stops it with a signal and reports the exit code and what it logged.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { reapWhenTestEnds } from '../child-reaper.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningSim {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves with stdout once it holds `lines` complete lines. */
  stdoutLines(lines: number, timeoutMs?: number): Promise<string[]>;
  /** Sends the signal and resolves with the exit code and stderr. */
  stop(signal: NodeJS.Signals): Promise<{ readonly code: number | null; readonly stderr: string }>;
}

export function spawnSim(args: readonly string[]): RunningSim {
  // Only PATH and HOME from the outer environment, so a developer's real LONGPORT_* settings never leak in.
  const child = spawn(process.execPath, ['bin/trader.js', 'sim', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  reapWhenTestEnds(child);
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    stdoutLines: (count, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const lines = stdout.split('\n');
          if (lines.length <= count) return;
          listeners.delete(check);
          clearTimeout(guard);
          resolve(lines.slice(0, count));
        };
        // A guard so a broken run fails instead of hanging the suite; not part of the behaviour tested.
        const guard = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`trader sim printed no ${count} lines within ${timeoutMs} ms; stdout: ${stdout}\nstderr: ${stderr}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() => reject(new Error(`trader sim exited early; stdout: ${stdout}\nstderr: ${stderr}`)));
        check();
      }),
    stop: async (signal) => {
      child.kill(signal);
      return { code: await exited, stderr };
    },
  };
}
