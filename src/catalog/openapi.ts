// The OpenAPI 3.1 document, generated from the same zod schemas and operation table that the router serves.
import { z } from 'zod';
import { AUTH_REALM } from './auth.js';
import type { Operation } from './operation.js';
import { API_PREFIX } from './operations.js';
import { componentNames, errorSchema } from './schemas.js';

export const OPENAPI_PATH = '/openapi.json';

type JsonObject = Record<string, unknown>;
type Io = 'input' | 'output';

export function buildOpenApiDocument(operations: readonly Operation[]): JsonObject {
  const components = new ComponentCollector();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const pathItem = (paths[operation.path] ??= {});
    pathItem[operation.method.toLowerCase()] = describeOperation(operation, components);
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document (needs no credentials)',
      security: [],
      responses: {
        200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
        default: {
          description: OTHER_ERRORS.description,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Artist catalog API',
      version: '1.0.0',
      description:
        'A catalog of Argentine rock artists and their albums. Ids are SQLite INTEGERs sent as JSON numbers; the server never ' +
        'issues one above 2^53 − 1, so every JSON parser reads them exactly. Every error has the shape of the Error schema. ' +
        'A known path with an unsupported method answers 405 with an Allow header; an unknown path answers 404.',
    },
    servers: [{ url: API_PREFIX }],
    security: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
    paths,
    components: {
      schemas: components.schemas(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `A token from CATALOG_TOKENS or the --auth file (realm "${AUTH_REALM}")`,
        },
        apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A key from CATALOG_API_KEYS or the --auth file' },
      },
    },
  };
}

/** What any operation may also answer: failures before or around it, in the same Error shape. */
const OTHER_ERRORS = {
  description:
    'Any other failure, in the Error shape: 405 method_not_allowed (with Allow), 408 (request too slow), 414 (path ' +
    'parameter too long), 431 (headers too large), 500 internal_error, 503 shutting_down, 503 database_busy (with ' +
    'Retry-After: another process held the database file past the busy timeout)',
  schema: errorSchema,
} as const;

function describeOperation(operation: Operation, components: ComponentCollector): JsonObject {
  const responses: Record<string, unknown> = {};
  const allResponses = operation.public
    ? operation.responses
    : { ...operation.responses, 401: { description: 'Missing or invalid credentials', schema: errorSchema } };
  for (const [status, response] of [...Object.entries(allResponses), ['default', OTHER_ERRORS] as const]) {
    responses[status] = {
      description: response.description,
      ...(response.schema === undefined
        ? {}
        : {
            content: {
              'application/json': { schema: components.ref(response.schema, 'output', `${capitalized(operation.operationId)}Response`) },
            },
          }),
      ...(status === '201' ? { headers: { Location: { description: 'Path of the created resource', schema: { type: 'string' } } } } : {}),
    };
  }
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description === undefined ? {} : { description: operation.description }),
    ...(operation.public ? { security: [] } : {}),
    parameters: [...parametersOf(operation.params, 'path'), ...parametersOf(operation.query, 'query')],
    ...(operation.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: components.ref(operation.body, 'input', `${capitalized(operation.operationId)}Body`) },
            },
          },
        }),
    responses,
  };
}

function parametersOf(schema: z.ZodObject | undefined, location: 'path' | 'query'): JsonObject[] {
  if (schema === undefined) return [];
  type ObjectJson = { properties?: Record<string, JsonObject>; required?: string[] };
  const json = z.toJSONSchema(schema, { io: 'input' }) as ObjectJson;
  // Query integers arrive as digit strings; their output view documents the integer they must denote (type,
  // bounds, default), while the input view says which parameters may be left out.
  const shown = location === 'query' ? (z.toJSONSchema(schema, { io: 'output' }) as ObjectJson) : json;
  return Object.entries(shown.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === 'path' || (json.required ?? []).includes(name),
      ...(description === undefined ? {} : { description }),
      schema: rest,
    };
  });
}

/**
 * Turns zod schemas into named components, returning $refs to them; request bodies use zod's input view
 * (defaults make fields optional), responses its output view. Unnamed schemas are named after their operation.
 */
class ComponentCollector {
  private readonly registries = { input: z.registry<{ id: string }>(), output: z.registry<{ id: string }>() };

  ref(schema: z.ZodType, io: Io, fallbackName: string): JsonObject {
    const registry = this.registries[io];
    const id = registry.get(schema)?.id ?? componentNames.get(schema)?.name ?? fallbackName;
    if (!registry.has(schema)) registry.add(schema, { id });
    return { $ref: `#/components/schemas/${id}` };
  }

  schemas(): Record<string, unknown> {
    const uri = (id: string): string => `#/components/schemas/${id}`;
    const entries = (['input', 'output'] as const).flatMap((io) =>
      Object.entries(z.toJSONSchema(this.registries[io], { io, uri }).schemas),
    );
    const result: Record<string, unknown> = {};
    for (const [id, json] of entries.sort(([a], [b]) => a.localeCompare(b))) {
      const { $schema: _schema, $id: _id, ...schema } = json as JsonObject;
      result[id] = schema;
    }
    return result;
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
