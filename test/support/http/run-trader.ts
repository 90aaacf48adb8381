// Runs the real `trader` binary (node bin/trader.js) as a child process and collects its output.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reapWhenTestEnds } from '../child-reaper.js';

export interface TraderRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * `cwd`: the working folder (default the repository's), for commands that write files there. `launcher`: a
 * command that runs node for it, with its own arguments first, e.g. `setpriv` to take a privilege away.
 */
export function runTrader(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd = REPO_ROOT,
  launcher: readonly string[] = [],
): Promise<TraderRun> {
  return new Promise((resolve, reject) => {
    const [command, ...prefix] = [...launcher, process.execPath];
    // Only PATH and HOME from the outer environment, so a developer's real LONGPORT_* settings never leak in.
    const child = spawn(command!, [...prefix, join(REPO_ROOT, 'bin/trader.js'), ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    reapWhenTestEnds(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs jobs with at most `limit` in flight (each CLI process costs about a second of CPU). */
export async function inBatches<T>(jobs: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}
