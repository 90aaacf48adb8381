// One signed call to the OpenAPI over a keep-alive undici pool: pacing per interface, a per-request timeout on
// the injected Clock, envelope unwrapping, and 429 back-off for calls that are safe to repeat (GETs only by
// default: order submission, replace and cancel are never repeated blindly).
import { Pool } from 'undici';
import { sleep } from '../../clock/sleep.js';
import type { Clock } from '../../domain/clock.js';
import { CLIENT_CLOSED, InvalidInputError } from '../../domain/errors.js';
import { scrubSecrets, silentLogger, type Logger } from '../../log/logger.js';
import { unwrapEnvelope } from './envelope.js';
import { BadResponseError, ServiceError, SERVICE_CODES, TransportError, type FailureContext } from './errors.js';
import { encodeQuery, type QueryParams } from './query.js';
import { RateLimiter, TRADE_RATE_LIMIT, type RateLimit } from './rate-limiter.js';
import { signRequest, type Credentials } from './signer.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallSpec {
  readonly method: HttpMethod;
  /** Path below the configured base URL, e.g. `/v1/asset/account`. */
  readonly path: string;
  /** The interface the rate limit counts against when the path holds ids (e.g. `/v1/content/topics/:id`). */
  readonly route?: string;
  readonly query?: QueryParams;
  /** A query string sent (and signed) exactly as given, instead of `query`. */
  readonly rawQuery?: string;
  /** Sent as JSON with its keys in the given order. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Safe to repeat after a 429 or a transient failure; defaults to true for GET only. */
  readonly idempotent?: boolean;
  /** Withdraws the call while it waits for its turn (or to be repeated): it is not sent, and rejects. */
  readonly signal?: AbortSignal;
}

export interface TransportOptions {
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Whole-request timeout (connect, headers and body), on the clock. Default 10 s. */
  readonly timeoutMs?: number;
  readonly rateLimit?: RateLimit;
  /**
   * A limiter shared with other clients of the account (accountRateLimiter) instead of one of this client's
   * own; `rateLimit` is then the shared one's. Closing this client fails only its own waiting calls.
   */
  readonly limiter?: RateLimiter;
  /** Back-off before each retry of an idempotent call answered with 429 (the SDK's schedule by default). */
  readonly retryDelaysMs?: readonly number[];
  /** Keep-alive connections to the service. Default 4. */
  readonly connections?: number;
  /** Default `accept-language`. */
  readonly language?: string;
}

export interface Transport {
  /** The envelope's `data` of a successful call; a typed OpenApiError otherwise. */
  call(spec: CallSpec): Promise<unknown>;
  /** Calls waiting for their turn fail at once; calls in flight finish, or fail at once with `abortInFlight`. */
  close(options?: CloseOptions): Promise<void>;
}

export interface CloseOptions {
  /** Cut calls already sent short (they fail, not retryable): the link is going away, nobody waits for them. */
  readonly abortInFlight?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [100, 200, 400, 800, 1600];
const NOT_REPEATED_HINT = '; it may still have taken effect: check (e.g. `trader orders`) before repeating it';

export function createTransport(credentials: Credentials & { readonly httpUrl: string }, options: TransportOptions): Transport {
  const { clock } = options;
  const logger = options.logger ?? silentLogger;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const base = parseBaseUrl(credentials.httpUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, { connections: options.connections ?? 4, keepAliveTimeout: 30_000 });
  const ownLimiter = options.limiter === undefined;
  const limiter = options.limiter ?? new RateLimiter(clock, options.rateLimit ?? TRADE_RATE_LIMIT);
  // Aborted on close: this client's calls still waiting for their turn fail, others' sharing the limiter wait on.
  const closing = new AbortController();
  // Aborted by close({ abortInFlight }): calls already sent are cut short.
  const cutting = new AbortController();
  const scrub = (text: string): string => scrubSecrets(text, [credentials.appSecret, credentials.accessToken]);
  const defaultHeaders = {
    'content-type': 'application/json; charset=utf-8',
    'accept-language': options.language ?? 'en',
    'user-agent': 'longport-trader',
  };
  let closed = false;

  async function send(spec: CallSpec, path: string, query: string, body: Buffer | undefined, idempotent: boolean): Promise<unknown> {
    const request = `${spec.method} ${spec.path}`;
    const context = (retryable: boolean, httpStatus?: number): FailureContext => ({
      request,
      httpStatus,
      traceId: undefined,
      retryable: retryable && idempotent,
    });
    const controller = new AbortController();
    let timedOut = false;
    const timer = clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const cut = (): void => controller.abort();
    cutting.signal.addEventListener('abort', cut, { once: true });
    const startedAt = clock.now();
    try {
      const signed = signRequest(credentials, { method: spec.method, path, query, ...(body === undefined ? {} : { body }) }, startedAt);
      const response = await pool.request({
        method: spec.method,
        path: query === '' ? path : `${path}?${query}`,
        headers: { ...defaultHeaders, ...signed, ...spec.headers },
        ...(body === undefined ? {} : { body }),
        signal: controller.signal,
      });
      const text = await response.body.text();
      const traceId = headerValue(response.headers['x-trace-id']);
      logger.debug({ request, status: response.statusCode, traceId, elapsedMs: clock.now() - startedAt }, 'openapi call');
      return unwrapEnvelope({ status: response.statusCode, body: text, traceId }, { request, idempotent, scrub });
    } catch (error) {
      if (timedOut) {
        throw new TransportError(
          'TIMEOUT',
          `${request} timed out after ${timeoutMs} ms${idempotent ? '' : NOT_REPEATED_HINT}`,
          context(true),
          error,
        );
      }
      if (error instanceof ServiceError || error instanceof TransportError || error instanceof BadResponseError) throw error;
      if (cutting.signal.aborted)
        throw new TransportError(
          CLIENT_CLOSED,
          `${request}: the client was closed while the call was in flight${idempotent ? '' : NOT_REPEATED_HINT}`,
          context(false),
          error,
        );
      const reason = scrub(describe(error));
      throw new TransportError(
        'CONNECTION_FAILED',
        `${request} failed: ${reason}${idempotent ? '' : NOT_REPEATED_HINT}`,
        context(true),
        error,
      );
    } finally {
      timer.cancel();
      cutting.signal.removeEventListener('abort', cut);
    }
  }

  return {
    async call(spec) {
      if (closed)
        throw new TransportError(CLIENT_CLOSED, `${spec.method} ${spec.path}: client is closed`, {
          request: `${spec.method} ${spec.path}`,
          httpStatus: undefined,
          traceId: undefined,
          retryable: false,
        });
      const idempotent = spec.idempotent ?? spec.method === 'GET';
      const path = `${basePath}${spec.path}`;
      const query = spec.rawQuery ?? encodeQuery(spec.query);
      const body = spec.body === undefined ? undefined : Buffer.from(JSON.stringify(spec.body), 'utf8');
      const key = `${spec.method} ${spec.route ?? spec.path}`;
      const waiting = spec.signal === undefined ? closing.signal : AbortSignal.any([closing.signal, spec.signal]);
      for (let attempt = 0; ; attempt += 1) {
        const done = await limiter.acquire(key, waiting);
        try {
          const answer = await send(spec, path, query, body, idempotent);
          done();
          return answer;
        } catch (error) {
          done();
          const delay = retryDelays[attempt];
          if (!idempotent || delay === undefined || !isRateLimited(error)) throw error;
          logger.warn({ request: key, attempt: attempt + 1, delayMs: delay }, 'rate limited by the service; retrying');
          await sleep(clock, delay, waiting);
        }
      }
    },
    async close(options = {}) {
      if (options.abortInFlight === true) cutting.abort();
      if (closed) return;
      closed = true;
      const reason = new TransportError(CLIENT_CLOSED, 'client closed', {
        request: 'close',
        httpStatus: undefined,
        traceId: undefined,
        retryable: false,
      });
      closing.abort(reason);
      if (ownLimiter) limiter.close(reason);
      await pool.close();
    },
  };
}

function parseBaseUrl(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidInputError(`LONGPORT_HTTP_URL: "${text}" is not an http(s) URL`, 'LONGPORT_HTTP_URL');
  }
  return url;
}

function isRateLimited(error: unknown): boolean {
  if (error instanceof ServiceError) {
    return error.serviceCode === SERVICE_CODES.IP_RATE_LIMITED || error.serviceCode === SERVICE_CODES.API_RATE_LIMITED;
  }
  return error instanceof TransportError && error.httpStatus === 429;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${typeof code === 'string' ? `${code} ` : ''}${error.message}${cause}`;
  }
  return String(error);
}
