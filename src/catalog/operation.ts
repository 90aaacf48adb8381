// One API operation: its method, path, schemas (which both validate and document it) and its handler.
import { z } from 'zod';
import type { CatalogStore } from './store.js';
import { type ParsedInput, parseRequest, type RawInput } from './validation.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

export interface ResponseDoc {
  readonly description: string;
  readonly schema?: z.ZodType;
}

/** What a handler answers: a status, a JSON body, and a Location for created resources. */
export interface OperationResult {
  readonly status: number;
  readonly body: unknown;
  readonly location?: string;
}

export interface OperationDocs {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Relative to the API prefix, in OpenAPI form: /artists/{artistId}. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** Public operations (the OpenAPI document) skip the credential check. */
  readonly public?: boolean;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly responses: Readonly<Record<number, ResponseDoc>>;
}

export interface Operation extends OperationDocs {
  /** Validates every part of the request (one 400 listing all problems), then runs the handler. */
  readonly run: (input: RawInput, store: CatalogStore) => OperationResult;
}

interface OperationDefinition<P extends z.ZodObject | undefined, Q extends z.ZodObject | undefined, B extends z.ZodType | undefined>
  extends Omit<OperationDocs, 'params' | 'query' | 'body'> {
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  readonly handle: (input: ParsedInput<P, Q, B>, store: CatalogStore) => OperationResult;
}

const NO_QUERY = z.strictObject({});

export function defineOperation<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(definition: OperationDefinition<P, Q, B>): Operation {
  const { handle, ...docs } = definition;
  // An operation without query parameters still refuses unknown ones, as listArtists does: a client sending
  // ?limit= or ?sort= to a list that has neither learns so instead of silently getting everything.
  const schemas = { ...definition, query: definition.query ?? NO_QUERY };
  return { ...docs, run: (input, store) => handle(parseRequest(schemas, input) as ParsedInput<P, Q, B>, store) };
}
