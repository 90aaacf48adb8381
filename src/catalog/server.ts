// The catalog HTTP server: Fastify over the SQLite store, with redacted pino logs; start, address, close.
import { STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { createAuthenticator } from './auth.js';
import { ApiError, ERROR_CODES } from './errors.js';
import type { Credentials } from './credentials.js';
import { buildOpenApiDocument } from './openapi.js';
import { API_PREFIX, catalogOperations } from './operations.js';
import { type CatalogApi, registerRoutes } from './router.js';
import { CatalogStore } from './store.js';

/** The catalog's only need for time: which album years are plausible. */
export interface CatalogClock {
  now(): number;
}

export interface CatalogServerOptions {
  /** Path of the SQLite file (created with its schema when missing). */
  readonly databasePath: string;
  readonly credentials: Credentials;
  readonly clock: CatalogClock;
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Largest accepted request body in bytes (413 beyond). */
  readonly bodyLimit?: number;
  readonly logLevel?: string;
  /** Where JSON log lines go; stderr by default. */
  readonly logDestination?: DestinationStream;
  /** How long a write waits for another process's lock on the database file before a 503 (default 5 s). */
  readonly busyTimeoutMs?: number;
}

export interface RunningCatalog {
  readonly app: FastifyInstance;
  /** Origin the server listens on, e.g. http://127.0.0.1:8080. */
  readonly origin: string;
  /** Base URL of the API: origin + /api/v1. */
  readonly url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * Fastify makes its JSON-schema compilers (ajv, fast-json-stringify) with every server, ~45 ms of start-up
 * (bench/README.md, "Start-up"); the catalog validates with zod and gives Fastify no schemas, so here they are
 * made the first time a schema asks for one, which no route does.
 */
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
type CompilerFactory = (...args: unknown[]) => unknown;
export const compilersOnFirstUse = {
  buildValidator: (...args: unknown[]) => (fromFastify('@fastify/ajv-compiler') as () => CompilerFactory)()(...args),
  buildSerializer: (...args: unknown[]) => (fromFastify('@fastify/fast-json-stringify-compiler') as () => CompilerFactory)()(...args),
};

/** Header values never written to a log line. */
const REDACTED_HEADERS = ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'] as const;

export async function startCatalogServer(options: CatalogServerOptions): Promise<RunningCatalog> {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const logger = {
    level: options.logLevel ?? 'info',
    redact: { paths: [...REDACTED_HEADERS], censor: '[redacted]' },
    serializers: {
      req: (request: FastifyRequest) => ({ method: request.method, url: request.url, headers: request.headers, remoteAddress: request.ip }),
    },
    stream: options.logDestination ?? pino.destination({ fd: 2, sync: false }),
  };
  // Fastify's own 503 while closing has another body shape; prepare() answers it in ours. So do URLs the
  // router cannot decode (frameworkErrors) and requests Node's HTTP parser rejects (clientErrorHandler).
  const app = Fastify({
    logger,
    bodyLimit,
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: false,
    frameworkErrors: (error, _request, reply) => {
      const apiError = frameworkError(error);
      void (reply as FastifyReply).code(apiError.status).send(apiError.toBody());
    },
    clientErrorHandler: answerClientError,
    schemaController: { compilersFactory: compilersOnFirstUse as never },
  });
  const store = CatalogStore.open(options.databasePath, options.busyTimeoutMs);
  app.addHook('onClose', async () => store.close());
  try {
    prepare(app, store, options, bodyLimit);
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('catalog server has no TCP address');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  return { app, origin, url: `${origin}${API_PREFIX}`, close: () => app.close() };
}

/** Errors the router raises before any route runs (a URL whose percent-escapes are not UTF-8, an over-long parameter). */
function frameworkError(error: { readonly code?: string; readonly message: string }): ApiError {
  if (error.code === 'FST_ERR_BAD_URL')
    return new ApiError(400, ERROR_CODES.invalidRequest, 'the URL path is not valid: its percent-escapes do not decode to UTF-8 text');
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return new ApiError(414, ERROR_CODES.invalidRequest, 'a path parameter is too long');
  return new ApiError(400, ERROR_CODES.invalidRequest, error.message);
}

/**
 * A request Node's HTTP parser rejected before Fastify saw it (raw non-ASCII bytes in the URL, a malformed
 * header): answered in the catalog's error shape, then the connection is closed, as Node itself does.
 */
function answerClientError(this: FastifyInstance, error: Error & { readonly code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError(431, ERROR_CODES.invalidRequest, 'the request headers are too large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError(408, ERROR_CODES.invalidRequest, 'the request took too long to arrive')
        : new ApiError(
            400,
            ERROR_CODES.invalidRequest,
            'malformed HTTP request: the request line or a header has bytes HTTP does not allow (percent-encode non-ASCII characters in URLs)',
          );
  // Such a request never reaches the request log; without this line a client's 400s would be invisible.
  this.log.info({ code: error.code, status: apiError.status }, 'rejected a request Node could not parse');
  const body = JSON.stringify(apiError.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Hooks, parsers and routes of the API on a fresh Fastify instance. */
function prepare(app: FastifyInstance, store: CatalogStore, options: CatalogServerOptions, bodyLimit: number): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    if (closing)
      throw new ApiError(503, ERROR_CODES.shuttingDown, 'the server is shutting down; retry against another instance or later', [], {
        connection: 'close',
      });
  });
  // Only JSON bodies are understood; Fastify's text/plain parser would turn a 415 into a confusing 400.
  app.removeContentTypeParser('text/plain');
  // "Next year", the latest album year, moves on while the server runs: the operations and the document showing
  // the bound are remade when the clock's year changes, not fixed at start.
  let made: { readonly year: number; readonly api: CatalogApi } | undefined;
  const current = (): CatalogApi => {
    const year = new Date(options.clock.now()).getUTCFullYear();
    if (made?.year !== year) {
      const operations = catalogOperations({ maxAlbumYear: year + 1 });
      made = { year, api: { operations, openApiDocument: buildOpenApiDocument(operations) } };
    }
    return made.api;
  };
  registerRoutes(app, {
    current,
    store,
    authenticate: createAuthenticator(options.credentials),
    bodyLimit,
  });
}
