// Hand-made HTTP calls to the simulator, signed with the test support's own rendering of PROTOCOL.md §1 (not
// src/), so a test can send exactly the bytes, headers and timestamp it wants, right or wrong.
import { request as httpRequest } from 'node:http';
import { expectedSignature } from '../http/fake-openapi-server.js';
import type { Simulator } from '../../../src/sim/server/index.js';

export interface RawCall {
  readonly method?: string;
  readonly path: string;
  readonly query?: string;
  readonly body?: string;
  /** Unix seconds as sent; by default a new second for every call (so no two calls share a signature). */
  readonly timestamp?: string;
  readonly appKey?: string;
  readonly appSecret?: string;
  readonly token?: string;
  /** Sent instead of the computed signature. */
  readonly signature?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sends a bare `?` after the path when there is no query (the signed query stays empty). */
  readonly bareQuery?: boolean;
}

export interface RawAnswer {
  readonly status: number;
  readonly traceId: string | null;
  readonly contentType: string | null;
  readonly text: string;
  /** The parsed JSON body, when it is JSON. */
  readonly json: Record<string, unknown> | undefined;
}

let nextSecond = 1_717_372_800;

export async function rawCall(sim: Simulator, call: RawCall): Promise<RawAnswer> {
  const method = call.method ?? 'GET';
  const query = call.query ?? '';
  const body = call.body ?? '';
  const appKey = call.appKey ?? sim.credentials.appKey;
  const token = call.token ?? sim.credentials.accessToken;
  const timestamp = call.timestamp ?? String(nextSecond++);
  const signature =
    call.signature ??
    expectedSignature(call.appSecret ?? sim.credentials.appSecret, method, call.path, query, token, appKey, timestamp, Buffer.from(body));
  const response = await send(sim, method, `${call.path}${query === '' ? (call.bareQuery ? '?' : '') : `?${query}`}`, body, {
    'content-type': 'application/json; charset=utf-8',
    'x-api-key': appKey,
    authorization: token,
    'x-timestamp': timestamp,
    'x-api-signature': `HMAC-SHA256 SignedHeaders=authorization;x-api-key;x-timestamp, Signature=${signature}`,
    ...call.headers,
  });
  const text = response.text;
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    traceId: response.headers['x-trace-id'] ?? null,
    contentType: response.headers['content-type'] ?? null,
    text,
    json,
  };
}

/** node:http rather than fetch: fetch normalises the target (it drops a bare `?`), this sends it verbatim. */
function send(
  sim: Simulator,
  method: string,
  target: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: sim.port, method, path: target, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers as Record<string, string>,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}
