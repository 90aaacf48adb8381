// One HTTP request through the simulated service: body read as raw bytes (the signature covers them), then
// authentication, the per-interface rate limit, injected faults, the route, and the envelope carrying both
// `message` and `msg` with a non-null `data`. Every response has an x-trace-id; injected latency delays it.
//
// Two 429s differ on purpose: the rate limit answers a JSON envelope (429002), which the official SDK does
// not retry; the injected fault answers plain text, which it retries five times with back-off.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sleep } from '../../../clock/sleep.js';
import type { Clock } from '../../../domain/clock.js';
import { InvalidInputError } from '../../../domain/errors.js';
import type { Logger } from '../../../log/logger.js';
import type { FaultInjector } from '../../venue/index.js';
import type { RateWindows } from '../rate-windows.js';
import type { RequestAuthenticator } from './request-auth.js';
import type { Router, SimRequest } from './router.js';
import { ServiceFailure, SIM_CODES } from './service-failure.js';

export interface HttpHandlerOptions {
  readonly clock: Clock;
  readonly router: Router;
  readonly auth: RequestAuthenticator;
  /** Per-interface call limits; none when undefined. */
  readonly limits: RateWindows | undefined;
  readonly faults: FaultInjector;
  readonly logger: Logger;
  readonly maxBodyBytes?: number;
}

type Reply =
  | { readonly kind: 'envelope'; readonly status: number; readonly code: number; readonly message: string; readonly data: unknown }
  | { readonly kind: 'json'; readonly status: number; readonly value: unknown }
  | { readonly kind: 'text'; readonly status: number; readonly text: string };

const MAX_BODY_BYTES = 1024 * 1024;

export function createHttpHandler(options: HttpHandlerOptions): (request: IncomingMessage, response: ServerResponse) => void {
  let traces = 0;
  return (incoming, response) => {
    const traceId = `sim-${(++traces).toString(16).padStart(8, '0')}`;
    void handle(options, incoming, traceId).then(async (reply) => {
      const latency = options.faults.latencyMs();
      if (latency > 0) await sleep(options.clock, latency);
      write(response, traceId, reply);
    });
  };
}

async function handle(options: HttpHandlerOptions, incoming: IncomingMessage, traceId: string): Promise<Reply> {
  const method = (incoming.method ?? 'GET').toUpperCase();
  const target = incoming.url ?? '/';
  const mark = target.indexOf('?');
  const path = mark < 0 ? target : target.slice(0, mark);
  const query = mark < 0 ? '' : target.slice(mark + 1);
  try {
    const body = await readBody(incoming, options.maxBodyBytes ?? MAX_BODY_BYTES);
    const match = options.router.match(method, path);
    if (match?.route.unsigned !== true) options.auth.check({ method, path, query, headers: incoming.headers, body });
    if (match === undefined) throw new ServiceFailure(404, SIM_CODES.NOT_FOUND, `no such interface: ${method} ${path}`);
    const request: SimRequest = {
      method,
      path,
      params: match.params,
      query: new URLSearchParams(query),
      headers: incoming.headers,
      body,
      origin: `http://${incoming.headers.host ?? 'localhost'}`,
    };
    if (match.route.unsigned === true) return { kind: 'json', status: 200, value: await match.route.handler(request) };
    const key = `${method} ${match.route.pattern}`;
    if (options.limits !== undefined && !options.limits.take(key))
      throw new ServiceFailure(429, SIM_CODES.API_RATE_LIMITED, `rate limited: ${key} allows fewer calls`);
    const fault = options.faults.httpFailure();
    if (fault !== undefined) options.logger.debug({ method, path, traceId, status: fault }, 'injected fault');
    if (fault === 429) return { kind: 'text', status: 429, text: 'Too Many Requests (injected fault)' };
    if (fault === 500) throw new ServiceFailure(500, SIM_CODES.INTERNAL_ERROR, 'internal error (injected fault)');
    const data = await match.route.handler(request);
    options.logger.debug({ method, path, traceId }, 'served');
    return { kind: 'envelope', status: 200, code: 0, message: 'success', data: data ?? {} };
  } catch (error) {
    return failureReply(error, options.logger, { method, path, traceId });
  }
}

function failureReply(error: unknown, logger: Logger, request: Record<string, string>): Reply {
  if (error instanceof ServiceFailure) {
    logger.debug({ ...request, code: error.code, reason: error.message }, 'refused');
    return { kind: 'envelope', status: error.httpStatus, code: error.code, message: error.message, data: {} };
  }
  if (error instanceof InvalidInputError) {
    return { kind: 'envelope', status: 400, code: SIM_CODES.INVALID_PARAMETER, message: `invalid parameter: ${error.message}`, data: {} };
  }
  logger.error({ ...request, error: (error as Error).message }, 'request failed');
  return { kind: 'envelope', status: 500, code: SIM_CODES.INTERNAL_ERROR, message: 'internal error', data: {} };
}

function readBody(incoming: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    incoming.on('end', () =>
      size > limit ? reject(new ServiceFailure(413, SIM_CODES.BODY_TOO_LARGE, `body over ${limit} bytes`)) : resolve(Buffer.concat(chunks)),
    );
    incoming.on('error', reject);
  });
}

function write(response: ServerResponse, traceId: string, reply: Reply): void {
  if (response.destroyed) return;
  const text =
    reply.kind === 'text'
      ? reply.text
      : JSON.stringify(
          reply.kind === 'json' ? reply.value : { code: reply.code, message: reply.message, msg: reply.message, data: reply.data },
        );
  response.writeHead(reply.status, {
    'content-type': reply.kind === 'text' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-trace-id': traceId,
  });
  response.end(text);
}
