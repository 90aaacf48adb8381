// The catalog's HTTP errors: one shape ({error, message, details}) for every failure a client can see.
import type { ErrorBody, ErrorDetail } from './schemas.js';

export const ERROR_CODES = {
  invalidRequest: 'invalid_request',
  invalidJson: 'invalid_json',
  unauthorized: 'unauthorized',
  artistNotFound: 'artist_not_found',
  albumNotFound: 'album_not_found',
  routeNotFound: 'route_not_found',
  methodNotAllowed: 'method_not_allowed',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  shuttingDown: 'shutting_down',
  databaseBusy: 'database_busy',
  internal: 'internal_error',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: readonly ErrorDetail[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ErrorBody {
    return { error: this.code, message: this.message, details: [...this.details] };
  }
}

export function artistNotFound(artistId: number): ApiError {
  return new ApiError(404, ERROR_CODES.artistNotFound, `no artist with id ${artistId}`);
}

/** Fastify's own failures (body parsing, limits) mapped to the catalog's shape; anything unknown is a 500. */
export function toApiError(error: unknown, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, ERROR_CODES.payloadTooLarge, `request body exceeds ${bodyLimit} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, ERROR_CODES.unsupportedMediaType, 'request body must be JSON (Content-Type: application/json)');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, ERROR_CODES.invalidJson, 'request body is empty but Content-Type says JSON');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, ERROR_CODES.invalidJson, 'request body is not valid JSON');
    // Another process held the database file's write lock past the busy timeout: worth retrying, not a fault.
    case 'SQLITE_BUSY':
    case 'SQLITE_BUSY_SNAPSHOT':
      return new ApiError(503, ERROR_CODES.databaseBusy, 'the database is busy with another writer; try again', [], { 'retry-after': '1' });
    default:
      break;
  }
  const status = typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : 500;
  if (status >= 400 && status < 500 && error instanceof Error) return new ApiError(status, ERROR_CODES.invalidRequest, error.message);
  return new ApiError(500, ERROR_CODES.internal, 'internal error; the server log has the details');
}
