// A fake OpenAPI server plus a client pointed at it, on virtual time: the pieces every client test needs.
import { Writable } from 'node:stream';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { createLogger, type Logger } from '../../../src/log/logger.js';
import { createOpenApiHttp, type OpenApiHttp, type OpenApiHttpOptions } from '../../../src/openapi/http/client.js';
import type { OpenApiConfig } from '../../../src/openapi/config.js';
import { driveClock } from './drive-clock.js';
import { startFakeOpenApi, type FakeOpenApiServer, type Route } from './fake-openapi-server.js';

export const TEST_SECRET = 'test-app-secret-0123456789';
export const TEST_TOKEN = 'test-access-token-9876543210';
export const TEST_KEY = 'test-app-key';

export interface Harness {
  readonly server: FakeOpenApiServer;
  readonly client: OpenApiHttp;
  readonly clock: VirtualClock;
  readonly config: OpenApiConfig;
  /** Everything the client logged (JSON lines), at debug level. */
  logs(): string;
  /** Awaits a client call while moving virtual time through back-offs and pacing waits. */
  run<T>(work: Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function configFor(url: string, overrides: Partial<OpenApiConfig> = {}): OpenApiConfig {
  return {
    appKey: TEST_KEY,
    appSecret: TEST_SECRET,
    accessToken: TEST_TOKEN,
    httpUrl: url,
    quoteWsUrl: 'ws://127.0.0.1:1',
    tradeWsUrl: 'ws://127.0.0.1:1',
    tokenExpiresAt: undefined,
    ...overrides,
  };
}

export function captureLogger(): { readonly logger: Logger; readonly text: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level: 'debug', destination }), text: () => chunks.join('') };
}

export async function startHarness(
  routes: Readonly<Record<string, Route>> = {},
  options: { readonly config?: Partial<OpenApiConfig>; readonly client?: Partial<OpenApiHttpOptions>; readonly startMs?: number } = {},
): Promise<Harness> {
  const server = await startFakeOpenApi({ appSecret: TEST_SECRET, accessToken: TEST_TOKEN, routes });
  const clock = new VirtualClock(options.startMs ?? Date.parse('2024-05-06T01:30:00Z'));
  const capture = captureLogger();
  const config = configFor(server.url, options.config);
  // The request timeout is far beyond the steps driveClock takes, so only tests that ask for a timeout get one.
  const client = createOpenApiHttp(config, { clock, logger: capture.logger, timeoutMs: 3_600_000, ...options.client });
  return {
    server,
    client,
    clock,
    config,
    logs: capture.text,
    run: (work) => driveClock(clock, work),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
