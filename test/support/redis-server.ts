// A real redis-server for queue tests: Debian's binary on a free loopback port, no persistence, stopped
// (and reaped) when the test ends. .ci/run installs redis-server when the machine lacks it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { reapWhenTestEnds } from './child-reaper.js';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export const REDIS_BINARY = process.env['REDIS_SERVER'] ?? '/usr/bin/redis-server';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * A new server: on a free port, or on `port` (a server started again where an earlier one ran, empty), with
 * `extra` settings (e.g. `--requirepass`).
 */
export async function startRedis(port?: number, extra: readonly string[] = []): Promise<RedisServer> {
  port ??= await freePort();
  const child: ChildProcess = spawn(
    REDIS_BINARY,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  reapWhenTestEnds(child);
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
