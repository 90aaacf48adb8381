// Serving the operation table with Fastify: credential checks, validation, JSON errors, 404s and 405s with Allow.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Authenticator, unauthorized } from './auth.js';
import { ApiError, ERROR_CODES, toApiError } from './errors.js';
import type { Operation } from './operation.js';
import { OPENAPI_PATH } from './openapi.js';
import { API_PREFIX } from './operations.js';
import type { CatalogStore } from './store.js';

/** The operations and their OpenAPI document as they stand now (bounds such as the latest album year move). */
export interface CatalogApi {
  readonly operations: readonly Operation[];
  readonly openApiDocument: unknown;
}

export interface RouterOptions {
  /** Always the same operations in the same order; only their bounds change. */
  readonly current: () => CatalogApi;
  readonly store: CatalogStore;
  readonly authenticate: Authenticator;
  readonly bodyLimit: number;
}

export function registerRoutes(app: FastifyInstance, options: RouterOptions): void {
  const requireCredentials = async (request: FastifyRequest): Promise<void> => {
    if (!options.authenticate(request.headers)) throw unauthorized(request.headers);
  };
  const { operations } = options.current();
  for (const [index, operation] of operations.entries()) {
    app.route({
      method: operation.method,
      url: `${API_PREFIX}${fastifyPath(operation.path)}`,
      ...(operation.public ? {} : { onRequest: requireCredentials }),
      handler: async (request, reply) => {
        const latest = options.current().operations[index] ?? operation;
        const result = latest.run({ params: request.params, query: request.query, body: request.body }, options.store);
        if (result.location !== undefined) void reply.header('location', result.location);
        return reply.code(result.status).send(result.body);
      },
    });
  }
  app.get(`${API_PREFIX}${OPENAPI_PATH}`, async () => options.current().openApiDocument);
  registerMethodNotAllowed(app, [
    ...operations.map((operation) => ({ path: operation.path, method: operation.method })),
    { path: OPENAPI_PATH, method: 'GET' },
  ]);

  app.setNotFoundHandler(async (request) => {
    throw new ApiError(404, ERROR_CODES.routeNotFound, `no route ${request.method} ${request.url.split('?')[0]}`);
  });
  app.setErrorHandler(async (error, request, reply: FastifyReply) => {
    const apiError = toApiError(error, options.bodyLimit);
    if (apiError.code === ERROR_CODES.internal) request.log.error({ err: error }, 'request failed');
    void reply.headers(apiError.headers);
    return reply.code(apiError.status).send(apiError.toBody());
  });
}

/** Every other method on a known path answers 405 naming the allowed ones (HEAD comes free with GET). */
function registerMethodNotAllowed(app: FastifyInstance, routes: readonly { readonly path: string; readonly method: string }[]): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    methodsByPath.set(route.path, methods);
  }
  for (const [path, allowed] of methodsByPath) {
    const allow = [...allowed].sort().join(', ');
    app.route({
      method: app.supportedMethods.filter((method) => !allowed.has(method)),
      url: `${API_PREFIX}${fastifyPath(path)}`,
      // Answered before the body is read, so a wrong method wins over a bad body.
      onRequest: async (request) => {
        throw new ApiError(
          405,
          ERROR_CODES.methodNotAllowed,
          `${request.method} is not allowed on ${API_PREFIX}${path}; allowed: ${allow}`,
          [],
          { allow },
        );
      },
      handler: async () => undefined,
    });
  }
}

/** OpenAPI's /artists/{artistId} as Fastify's /artists/:artistId. */
function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
