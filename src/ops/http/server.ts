// The dashboard's HTTP server (node:http, on 127.0.0.1 unless told otherwise): the page and its files (they
// hold no data), and behind the bearer token everything else: the state as JSON, live updates, the actions
// (POSTs; the token travels in a header, never in a cookie, so no other site can make a browser act), the
// Prometheus metrics, and /status when it shares the scheduler's health port. Scripts come only from the
// process (CSP); inline styles are allowed because the chart library sets them. /health without the token
// says only healthy or not, for probes. A metrics-only server (--metrics-port) serves /metrics alone.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sleep } from '../../clock/sleep.js';
import type { Clock } from '../../domain/clock.js';
import { InvalidInputError, listenError } from '../../domain/errors.js';
import { parseSymbol } from '../../domain/symbol.js';
import type { Logger } from '../../log/logger.js';
import { AuthThrottle, bearerToken, tokenMatches } from '../auth.js';
import type { BotControl, ControlOutcome } from '../control.js';
import { performControl, type ControlAction } from '../control-action.js';
import type { OpsHub } from '../hub.js';
import type { LogTail } from '../log-tail.js';
import type { OpsMetrics } from '../metrics.js';
import { assetAt } from './assets.js';
import { EventStreams } from './event-stream.js';

/** The schedule's status, when the dashboard serves its health port. */
export interface HealthSource {
  status(): Promise<{ readonly healthy: boolean }>;
}

export interface OpsServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The dashboard (page, state, live updates, actions); a metrics-only server has none. */
  readonly dashboard?: { readonly hub: OpsHub; readonly control: BotControl; readonly readOnly: boolean; readonly logs?: LogTail };
  readonly metrics?: OpsMetrics;
  readonly health?: HealthSource;
  /** Least time between two batches of live updates. Default 100 ms. */
  readonly pushGapMs?: number;
  readonly throttle?: AuthThrottle;
}

export interface OpsServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
} as const;

const JOB_ACTIONS = new Set(['pause', 'resume', 'run']);

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const { clock, logger } = options;
  const throttle = options.throttle ?? new AuthThrottle();
  const streams =
    options.dashboard === undefined
      ? undefined
      : new EventStreams(options.dashboard.hub, clock, options.pushGapMs ?? 100, options.dashboard.logs);
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      logger.error({ error: message, path: pathOf(request) }, 'dashboard request failed');
      send(response, 500, { error: message });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = pathOf(request);
    const method = request.method ?? 'GET';
    if (options.dashboard !== undefined && (method === 'GET' || method === 'HEAD')) {
      const asset = assetAt(path);
      if (asset !== undefined) {
        const { body, contentType } = await asset;
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache', ...SECURITY_HEADERS });
        response.end(method === 'HEAD' ? undefined : body);
        return;
      }
    }
    const address = request.socket.remoteAddress ?? 'unknown';
    const blocked = throttle.blockedFor(address, clock.now());
    if (blocked > 0) {
      response.setHeader('retry-after', String(Math.ceil(blocked / 1000)));
      send(response, 429, { error: 'too many bad tokens from this address; wait and try again' });
      return;
    }
    const authorized = tokenMatches(bearerToken(request.headers.authorization), options.token);
    if (!authorized && path === '/health' && options.health !== undefined) {
      const { healthy } = await options.health.status();
      send(response, healthy ? 200 : 503, { healthy });
      return;
    }
    if (!authorized) {
      const delay = throttle.failed(address, clock.now());
      if (delay > 0) {
        logger.warn({ address, delayMs: delay }, 'dashboard: repeated bad tokens; answering slowly');
        await sleep(clock, delay);
      }
      response.setHeader('www-authenticate', 'Bearer');
      send(response, 401, { error: 'a valid token is required (Authorization: Bearer TOKEN)' });
      return;
    }
    throttle.succeeded(address);
    await route(request, response, path, method);
  }

  async function route(request: IncomingMessage, response: ServerResponse, path: string, method: string): Promise<void> {
    if (path === '/metrics' && options.metrics !== undefined) {
      if (!isRead(method)) return refuseMethod(response, 'GET');
      const { contentType, body } = await options.metrics.render();
      response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
      response.end(method === 'HEAD' ? undefined : body);
      return;
    }
    if ((path === '/health' || path === '/status') && options.health !== undefined) {
      if (!isRead(method)) return refuseMethod(response, 'GET');
      const status = await options.health.status();
      send(response, path === '/health' && !status.healthy ? 503 : 200, status);
      return;
    }
    const dashboard = options.dashboard;
    if (dashboard === undefined || !path.startsWith('/api/')) return send(response, 404, { error: `no route ${path}` });
    if (path === '/api/state') {
      if (!isRead(method)) return refuseMethod(response, 'GET');
      return send(response, 200, dashboard.hub.state());
    }
    if (path === '/api/events') {
      if (!isRead(method)) return refuseMethod(response, 'GET');
      streams!.open(response);
      return;
    }
    const action = actionOf(path);
    if (action === undefined) return send(response, 404, { error: `no route ${path}` });
    if (method !== 'POST') return refuseMethod(response, 'POST');
    if (dashboard.readOnly) return send(response, 403, { error: 'the dashboard is read-only (--ui-read-only)' });
    logger.info(
      { action: action.name, target: action.target, address: request.socket.remoteAddress },
      `dashboard: ${action.name} requested`,
    );
    let outcome: ControlOutcome;
    try {
      const asked = controlAction(action, await readJson(request));
      outcome = await performControl(dashboard.control, asked, { channel: 'dashboard', address: request.socket.remoteAddress }, logger);
    } catch (error) {
      if (error instanceof InvalidInputError) return send(response, 400, { done: false, message: error.message });
      throw error;
    }
    logger.info({ action: action.name, target: action.target, done: outcome.done }, `dashboard: ${outcome.message}`);
    dashboard.hub.refresh();
    send(response, outcome.done ? 200 : 409, outcome);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      streams?.close();
      const flags = { host: '--ui-host', port: options.dashboard === undefined ? '--metrics-port' : '--ui=PORT' };
      reject(listenError(error, options.host, options.port, flags));
    });
    server.listen(options.port, options.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    port,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        streams?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Action {
  readonly name: 'cancel' | 'flatten' | 'pause' | 'resume' | 'run' | 'trip' | 'reset';
  readonly target: string | undefined;
}

function actionOf(path: string): Action | undefined {
  const parts = path
    .split('/')
    .slice(2)
    .map((part) => decodeURIComponent(part));
  const [area, target, verb] = parts;
  if (parts.length === 3 && area === 'orders' && verb === 'cancel') return { name: 'cancel', target };
  if (parts.length === 3 && area === 'positions' && verb === 'flatten') return { name: 'flatten', target };
  if (parts.length === 3 && area === 'jobs' && verb !== undefined && JOB_ACTIONS.has(verb))
    return { name: verb as 'pause' | 'resume' | 'run', target };
  if (parts.length === 2 && area === 'kill-switch' && (target === 'trip' || target === 'reset')) return { name: target, target: undefined };
  return undefined;
}

function controlAction(action: Action, body: Record<string, unknown>): ControlAction {
  const target = action.target ?? '';
  switch (action.name) {
    case 'flatten':
      return { name: 'flatten', target: parseSymbol(target) };
    case 'trip': {
      const reason =
        typeof body['reason'] === 'string' && body['reason'].trim() !== '' ? body['reason'].trim().slice(0, 200) : 'tripped by hand';
      return { name: 'trip', reason: `dashboard: ${reason}` };
    }
    case 'reset':
      return { name: 'reset' };
    default:
      return { name: action.name, target };
  }
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > 4096) throw new InvalidInputError('request body too large', 'body');
  }
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    throw new InvalidInputError('the request body is not JSON', 'body');
  }
}

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

function refuseMethod(response: ServerResponse, allowed: string): void {
  response.setHeader('allow', allowed);
  send(response, 405, { error: `only ${allowed} is supported here` });
}

function pathOf(request: IncomingMessage): string {
  return new URL(request.url ?? '/', 'http://localhost').pathname;
}

function send(response: ServerResponse, statusCode: number, body: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS });
  response.end(`${JSON.stringify(body)}\n`);
}
