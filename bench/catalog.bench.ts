// Requests per second of the artist catalog API on loopback: POST album and GET artist, through the real CLI server.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

const CONNECTIONS = 32;
const SECONDS = Number(process.env['CATALOG_BENCH_SECONDS'] ?? 5);
const KEY = 'bench-key-0123456789';

interface Figures {
  readonly requests: number;
  readonly seconds: number;
  readonly latencies: number[];
}

export default async function catalogBench(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'catalog-bench-'));
  const server = await startServer(join(directory, 'catalog.sqlite'));
  const pool = new Pool(server.origin, { connections: CONNECTIONS, pipelining: 1 });
  try {
    const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
    const postTo = await createArtist(pool, headers, 'Charly García');
    const readFrom = await createArtist(pool, headers, 'Luis Alberto Spinetta');
    for (let index = 0; index < 10; index += 1)
      await send(pool, 'POST', `/api/v1/artists/${readFrom}/albums`, headers, { name: `Disco ${index}`, year: 1970 + index });
    const album = JSON.stringify({ name: 'Clics modernos', year: 1983, image: 'https://example.com/clics.jpg' });

    await load(1, () => send(pool, 'GET', `/api/v1/artists/${readFrom}`, headers)); // warm-up (JIT, SQLite page cache)
    const posts = await load(SECONDS, () => send(pool, 'POST', `/api/v1/artists/${postTo}/albums`, headers, album));
    const gets = await load(SECONDS, () => send(pool, 'GET', `/api/v1/artists/${readFrom}`, headers));

    console.log(
      `catalog API on loopback, ${CONNECTIONS} concurrent connections, ${SECONDS} s per case, server log level warn, ${availableParallelism()} CPUs`,
    );
    report('POST /artists/{id}/albums (201, one SQLite insert)', posts);
    report('GET  /artists/{id}        (200, artist + 10 albums)', gets);
  } finally {
    await pool.close();
    await server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function startServer(databasePath: string): Promise<{ origin: string; stop: () => Promise<void> }> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    ['bin/trader.js', 'catalog', 'serve', '--port', '0', '--db', databasePath, '--json'],
    {
      cwd: root,
      env: { ...process.env, CATALOG_API_KEYS: KEY, CATALOG_TOKENS: '', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += String(chunk);
      const match = /"url": "(http:\/\/[^"]+)\/api\/v1"/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`catalog server exited before listening: ${output}`)));
  });
  return {
    origin,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function createArtist(pool: Pool, headers: Record<string, string>, name: string): Promise<number> {
  const reply = await pool.request({ method: 'POST', path: '/api/v1/artists', headers, body: JSON.stringify({ name, band: null }) });
  const body = (await reply.body.json()) as { id: number };
  if (reply.statusCode !== 201) throw new Error(`creating ${name} answered ${reply.statusCode}`);
  return body.id;
}

async function send(pool: Pool, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown): Promise<void> {
  const reply = await pool.request({
    method,
    path,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  await reply.body.dump();
  if (reply.statusCode >= 300) throw new Error(`${method} ${path} answered ${reply.statusCode}`);
}

/** Keeps CONNECTIONS requests in flight for the given time; every request must succeed. */
async function load(seconds: number, request: () => Promise<void>): Promise<Figures> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      await request();
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return { requests: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

function report(label: string, figures: Figures): void {
  const sorted = [...figures.latencies].sort((a, b) => a - b);
  const percentile = (p: number): string => (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(2);
  const perSecond = Math.round(figures.requests / figures.seconds);
  console.log(
    `${label}: ${perSecond} req/s (${figures.requests} requests in ${figures.seconds.toFixed(1)} s), latency p50 ${percentile(50)} ms, p99 ${percentile(99)} ms`,
  );
}
