// The `--health-port` endpoint: the status snapshot as JSON over HTTP on 127.0.0.1.
// GET /health answers 200 when healthy and 503 when not (kill switch, order halt, halted job); GET /status 200.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenError } from '../domain/errors.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { StatusSnapshot } from './status.js';

export interface HealthServerOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host?: string;
  readonly status: () => Promise<StatusSnapshot>;
  readonly logger?: Logger;
}

export interface HealthServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? silentLogger;
  const server = createServer((request, response) => {
    respond(request, response, options.status).catch((error: unknown) => {
      logger.error({ error: (error as Error).message }, 'health endpoint failed');
      send(response, 500, { error: (error as Error).message });
    });
  });
  await new Promise<void>((resolve, reject) => {
    // The address is an option of the API only: the command line always listens on 127.0.0.1.
    const failed = (error: Error): void => reject(listenError(error, host, options.port, { host: 'host', port: '--health-port' }));
    server.once('error', failed);
    server.listen(options.port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ host, port }, 'health endpoint listening');
  return {
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(request: IncomingMessage, response: ServerResponse, status: () => Promise<StatusSnapshot>): Promise<void> {
  const route = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (route !== '/health' && route !== '/status') {
    send(response, 404, { error: `no route ${route}; try /health or /status` });
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    send(response, 405, { error: 'only GET is supported' });
    return;
  }
  const snapshot = await status();
  send(response, route === '/health' && !snapshot.healthy ? 503 : 200, snapshot);
}

function send(response: ServerResponse, statusCode: number, body: unknown): void {
  if (response.headersSent) return;
  response.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(`${JSON.stringify(body)}\n`);
}
