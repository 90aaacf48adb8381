// A real HTTP server on 127.0.0.1 playing the OpenAPI for tests: it verifies every signature with its own
// implementation of PROTOCOL.md §1 (deliberately not importing src/), records each request, and answers from
// per-route handlers.
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** The raw query string as received (no `?`). */
  readonly query: string;
  /** Decoded query parameters in wire order (repeated keys kept). */
  readonly params: readonly (readonly [string, string])[];
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly appKey: string;
  readonly signatureValid: boolean;
  /** Client port of the TCP connection the request came on (same port = connection reused). */
  readonly remotePort: number | undefined;
}

export interface Reply {
  readonly status?: number;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent verbatim as text/plain (for non-JSON answers). */
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Never answer (for timeouts). */
  readonly hang?: boolean;
}

export type Route = (request: RecordedRequest) => Reply;

/** A success envelope carrying both `message` and `msg`, as PROTOCOL.md asks servers to. */
export function ok(data: unknown): Reply {
  return { json: { code: 0, message: 'success', msg: 'success', data } };
}

export function failure(code: number, message: string, status = 200): Reply {
  return { status, json: { code, message, data: null } };
}

export interface FakeServerOptions {
  readonly appSecret: string;
  readonly accessToken: string;
  /** Handlers by `METHOD /path`; unknown routes answer 404. */
  readonly routes?: Readonly<Record<string, Route>>;
}

export interface FakeOpenApiServer {
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Requests sent with this `X-Api-Key` (tests give each CLI process its own key). */
  requestsBy(appKey: string): readonly RecordedRequest[];
  route(key: string, handler: Route): void;
  close(): Promise<void>;
}

export async function startFakeOpenApi(options: FakeServerOptions): Promise<FakeOpenApiServer> {
  const routes = new Map<string, Route>(Object.entries(options.routes ?? {}));
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const target = incoming.url ?? '/';
      const mark = target.indexOf('?');
      const path = mark < 0 ? target : target.slice(0, mark);
      const query = mark < 0 ? '' : target.slice(mark + 1);
      const body = Buffer.concat(chunks);
      const header = (name: string): string => String(incoming.headers[name] ?? '');
      const record: RecordedRequest = {
        method: incoming.method ?? '',
        path,
        query,
        params: [...new URLSearchParams(query)],
        headers: incoming.headers,
        body: body.toString('utf8'),
        appKey: header('x-api-key'),
        remotePort: incoming.socket.remotePort,
        signatureValid:
          expectedSignature(
            options.appSecret,
            incoming.method ?? '',
            path,
            query,
            header('authorization'),
            header('x-api-key'),
            header('x-timestamp'),
            body,
          ) === signatureOf(header('x-api-signature')),
      };
      requests.push(record);
      const reply = answer(record);
      if (reply.hang) return;
      const text = reply.text ?? JSON.stringify(reply.json ?? {});
      response.writeHead(reply.status ?? 200, {
        'content-type': reply.text === undefined ? 'application/json' : 'text/plain',
        'x-trace-id': `trace-${requests.length}`,
        ...reply.headers,
      });
      response.end(text);
    });
  });

  function answer(record: RecordedRequest): Reply {
    if (!record.signatureValid) return failure(403201, 'signature invalid', 403);
    if (record.headers['authorization'] !== options.accessToken) return failure(401004, 'token invalid', 401);
    const handler = routes.get(`${record.method} ${record.path}`);
    return handler === undefined ? failure(404001, `no route ${record.method} ${record.path}`, 404) : handler(record);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsBy: (appKey) => requests.filter((request) => request.appKey === appKey),
    route: (key, handler) => void routes.set(key, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An independent rendering of PROTOCOL.md §1, so a bug in src/openapi/http/signer.ts cannot hide itself. */
export function expectedSignature(
  appSecret: string,
  method: string,
  path: string,
  query: string,
  token: string,
  appKey: string,
  timestamp: string,
  body: Uint8Array,
): string {
  const lines = [
    `${method}|${path}|${query}|authorization:${token}`,
    `x-api-key:${appKey}`,
    `x-timestamp:${timestamp}`,
    `|authorization;x-api-key;x-timestamp|`,
  ];
  let canonical = lines.join('\n');
  if (body.length > 0) canonical += createHash('sha1').update(body).digest('hex');
  const digest = createHash('sha1').update(canonical).digest('hex');
  return createHmac('sha256', appSecret).update(`HMAC-SHA256|${digest}`).digest('hex');
}

function signatureOf(header: string): string {
  const prefix = 'HMAC-SHA256 SignedHeaders=authorization;x-api-key;x-timestamp, Signature=';
  return header.startsWith(prefix) ? header.slice(prefix.length) : '';
}
