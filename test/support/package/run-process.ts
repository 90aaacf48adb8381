// Runs a command as a child process to its end and collects its output (npm, tsc, node, the `trader` binary).
import { spawn } from 'node:child_process';

export interface ProcessRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd: string;
  /** Added to PATH, HOME and the cache folders (a developer's LONGPORT_* variables never leak in). */
  readonly env?: Readonly<Record<string, string>>;
}

export function runProcess(command: string, args: readonly string[], options: RunOptions): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        TRADER_CACHE_DIR: process.env['TRADER_CACHE_DIR'] ?? '',
        TRADER_SNAPSHOT_DIR: process.env['TRADER_SNAPSHOT_DIR'] ?? '',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Fails with everything the process printed when it did not exit 0. */
export function expectSuccess(run: ProcessRun, what: string): ProcessRun {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
  return run;
}

/** The files a process loaded (ES modules and CommonJS), read from Node's own debug log (NODE_DEBUG=esm,module). */
export function loadedFiles(stderr: string): string[] {
  const files = new Set<string>();
  for (const match of stderr.matchAll(/^ESM \d+: Storing (file:\/\/\S+) /gm))
    files.add(decodeURIComponent(match[1]!.slice('file://'.length)));
  for (const match of stderr.matchAll(/^MODULE \d+: load "([^"]+)"/gm)) files.add(match[1]!);
  return [...files];
}
