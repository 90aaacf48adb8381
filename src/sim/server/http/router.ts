// Routes of the simulated HTTP API: `METHOD /path/:param` patterns, the request a handler sees, and the
// checked reading of JSON bodies and query values (a bad one is a 400 naming the field).
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import { ServiceFailure } from './service-failure.js';

export interface SimRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** `http://host:port` as the client addressed the server (for URLs handed back). */
  readonly origin: string;
}

/** Returns the envelope's `data`. */
export type RouteHandler = (request: SimRequest) => unknown;

export interface Route {
  readonly method: string;
  readonly pattern: string;
  readonly handler: RouteHandler;
  /** Served without signature or envelope (a download link handed out by another call). */
  readonly unsigned?: boolean;
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Record<string, string>;
}

export class Router {
  private readonly routes: { readonly route: Route; readonly parts: readonly string[] }[];

  constructor(routes: readonly Route[]) {
    this.routes = routes.map((route) => ({ route, parts: route.pattern.split('/') }));
  }

  match(method: string, path: string): RouteMatch | undefined {
    const parts = path.split('/');
    for (const { route, parts: pattern } of this.routes) {
      if (route.method !== method || pattern.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const fits = pattern.every((part, index) => {
        if (part.startsWith(':')) {
          params[part.slice(1)] = decodeURIComponent(parts[index]!);
          return parts[index] !== '';
        }
        return part === parts[index];
      });
      if (fits) return { route, params };
    }
    return undefined;
  }
}

/** The JSON body, checked against `schema`. */
export function readBody<S extends z.ZodType>(request: SimRequest, schema: S): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(request.body.toString('utf8') || '{}');
  } catch {
    throw ServiceFailure.invalid('body', 'is not JSON');
  }
  return checked(schema, value);
}

/** The query parameters (repeated keys as arrays), checked against `schema`. */
export function readQuery<S extends z.ZodType>(request: SimRequest, schema: S, arrays: readonly string[] = []): z.output<S> {
  const value: Record<string, string | string[]> = {};
  for (const key of new Set(request.query.keys())) value[key] = arrays.includes(key) ? request.query.getAll(key) : request.query.get(key)!;
  return checked(schema, value);
}

function checked<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.') || 'body';
  const missing =
    issue.path.reduce<unknown>(
      (node, key) => (node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined),
      value,
    ) === undefined;
  throw ServiceFailure.invalid(field, missing ? 'is missing' : issue.message.replace(/^Invalid input: /, ''));
}
