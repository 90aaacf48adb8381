// Request validation: path, query and body checked against their zod schemas, every problem reported at once.
import type { z } from 'zod';
import { ApiError, ERROR_CODES } from './errors.js';
import type { ErrorDetail } from './schemas.js';

export type InputLocation = ErrorDetail['in'];

export type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RawInput {
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
}

export interface RequestSchemas<P, Q, B> {
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
}

export interface ParsedInput<P, Q, B> {
  readonly params: Parsed<P>;
  readonly query: Parsed<Q>;
  readonly body: Parsed<B>;
}

/** Parses every part; throws one 400 whose details name each bad field of path, query and body together. */
export function parseRequest<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  schemas: RequestSchemas<P, Q, B>,
  input: RawInput,
): ParsedInput<P, Q, B> {
  const details: ErrorDetail[] = [];
  const parse = (schema: z.ZodType | undefined, value: unknown, location: InputLocation): unknown => {
    if (schema === undefined) return undefined;
    const result = schema.safeParse(value);
    if (!result.success) details.push(...result.error.issues.flatMap((issue) => detailsOf(issue, location)));
    return result.data;
  };
  const parsed = {
    params: parse(schemas.params, input.params, 'path'),
    query: parse(schemas.query, input.query, 'query'),
    body: parse(schemas.body, input.body, 'body'),
  };
  if (details.length > 0) {
    const summary = details.map((detail) => `${detail.in}${detail.path === '' ? '' : ` ${detail.path}`}: ${detail.message}`).join('; ');
    throw new ApiError(400, ERROR_CODES.invalidRequest, `invalid request: ${summary}`, details);
  }
  return parsed as ParsedInput<P, Q, B>;
}

function detailsOf(issue: z.core.$ZodIssue, location: InputLocation): ErrorDetail[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ in: location, path: formatPath([...issue.path, key]), message: 'is not a known field' }));
  }
  if (issue.path.length === 0 && issue.code === 'invalid_type' && location === 'body') {
    return [{ in: location, path: '', message: 'request body must be a JSON object' }];
  }
  return [{ in: location, path: formatPath(issue.path), message: issue.message }];
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}
