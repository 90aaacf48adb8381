// Test harness for the catalog: a real server on 127.0.0.1 (port 0) over a SQLite file in a temp dir, and an HTTP client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { DestinationStream } from 'pino';
import { type RunningCatalog, startCatalogServer } from '../../src/catalog/server.js';

export const TOKEN = 'test-token-0123456789';
export const API_KEY = 'test-key-9876543210';
/** 2024-06-01: albums up to 2025 are plausible. */
export const FIXED_NOW = Date.UTC(2024, 5, 1);

export type Auth = 'bearer' | 'key' | 'none';

export interface CallOptions {
  readonly json?: unknown;
  /** A raw body sent as is (with contentType, if given). */
  readonly raw?: string;
  readonly contentType?: string;
  readonly auth?: Auth;
  readonly headers?: Record<string, string>;
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are read freely in assertions
  readonly body: any;
}

export interface TestCatalog {
  readonly server: RunningCatalog;
  readonly databasePath: string;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** Closes the server; the SQLite file stays for a restart. */
  stop(): Promise<void>;
  /** Starts a new server over the same file. */
  restart(): Promise<TestCatalog>;
}

export interface HarnessOptions {
  readonly logDestination?: DestinationStream;
  readonly bodyLimit?: number;
  /** The server's clock; FIXED_NOW by default. */
  readonly now?: () => number;
  readonly busyTimeoutMs?: number;
}

export class CatalogHarness {
  private readonly directories: string[] = [];
  private readonly running = new Set<RunningCatalog>();

  async start(options: HarnessOptions = {}, databasePath?: string): Promise<TestCatalog> {
    const path = databasePath ?? join(this.tempDirectory(), 'catalog.sqlite');
    const server = await startCatalogServer({
      databasePath: path,
      credentials: { tokens: [TOKEN], apiKeys: [API_KEY] },
      clock: { now: options.now ?? (() => FIXED_NOW) },
      logLevel: options.logDestination === undefined ? 'silent' : 'info',
      ...(options.logDestination === undefined ? {} : { logDestination: options.logDestination }),
      ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
    });
    this.running.add(server);
    return {
      server,
      databasePath: path,
      call: (method, target, callOptions) => call(server.url, method, target, callOptions),
      stop: async () => {
        this.running.delete(server);
        await server.close();
      },
      restart: () => this.start(options, path),
    };
  }

  tempDirectory(): string {
    const directory = mkdtempSync(join(tmpdir(), 'catalog-test-'));
    this.directories.push(directory);
    return directory;
  }

  async cleanup(): Promise<void> {
    await Promise.all([...this.running].map((server) => server.close()));
    this.running.clear();
    for (const directory of this.directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  }
}

export async function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth ?? 'bearer';
  if (auth === 'bearer') headers['authorization'] = `Bearer ${TOKEN}`;
  if (auth === 'key') headers['x-api-key'] = API_KEY;
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = options.contentType ?? 'application/json';
  } else if (options.raw !== undefined) {
    body = options.raw;
    if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  }
  const response = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, ...(body === undefined ? {} : { body }) });
  const text = await response.body.text();
  const type = String(response.headers['content-type'] ?? '');
  return {
    status: response.statusCode,
    headers: response.headers,
    body: type.startsWith('application/json') && text !== '' ? JSON.parse(text) : text,
  };
}
