// Runs `trader run …` as a real child process (bin/trader.js): wait for a log line on stderr, interrupt it
// like Ctrl-C, or kill it outright, and read what it printed.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { reapWhenTestEnds } from '../child-reaper.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningTrader {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stderr line containing `text` (a real-time guard fails a broken run). */
  waitForLog(text: string, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (null when killed by a signal) and the signal once the process has ended. */
  exited(): Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
  /** Sends the signal and resolves with the exit code (null when killed by a signal) and the signal. */
  signal(signal: NodeJS.Signals): Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
}

export function spawnRun(args: readonly string[], env: Readonly<Record<string, string>> = {}): RunningTrader {
  return spawnTrader(['run', ...args], env);
}

/**
 * Any `trader` command (the first argument names it) as a child process: `node bin/trader.js …`, or with
 * `launcher` the file run as a command, as a shell runs `trader` (its sh part, then the start-up snapshot).
 */
export function spawnTrader(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  options: { readonly launcher?: boolean } = {},
): RunningTrader {
  // Only PATH, HOME and the test's snapshot folder from the outer environment, so a developer's real
  // LONGPORT_* settings never leak in.
  const [command, commandArgs] = options.launcher === true ? ['bin/trader.js', args] : [process.execPath, ['bin/trader.js', ...args]];
  const child = spawn(command, commandArgs, {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      TRADER_SNAPSHOT_DIR: process.env['TRADER_SNAPSHOT_DIR'] ?? '',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  reapWhenTestEnds(child);
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
    for (const listener of listeners) listener();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited: () => exited,
    waitForLog: (text, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const line = err.split('\n').find((candidate) => candidate.includes(text));
          if (line === undefined) return;
          listeners.delete(check);
          clearTimeout(guard);
          resolve(line);
        };
        // A guard so a broken run fails instead of hanging the suite; not part of the behaviour tested.
        const guard = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`trader ${args[0]} logged no "${text}" within ${timeoutMs} ms; stderr:\n${err}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() => {
          if (!listeners.has(check)) return;
          listeners.delete(check);
          clearTimeout(guard);
          reject(new Error(`trader ${args[0]} exited before logging "${text}"; stderr:\n${err}\nstdout:\n${out}`));
        });
        check();
      }),
    signal: async (signal) => {
      child.kill(signal);
      return exited;
    },
  };
}
