// Typed failures of the HTTP client: the service said no (ServiceError), the service could not be reached or
// was too slow (TransportError), or it answered something we cannot read (BadResponseError).
import { CLIENT_CLOSED, TraderError } from '../../domain/errors.js';

/** Business codes of PROTOCOL.md §2 by name. */
export const SERVICE_CODES = {
  SIGNATURE_INVALID: 403201,
  DUPLICATE_REQUEST: 403202,
  API_KEY_ILLEGAL: 403203,
  IP_NOT_ALLOWED: 403205,
  TOKEN_EXPIRED: 401003,
  TOKEN_INVALID: 401004,
  IP_RATE_LIMITED: 429001,
  API_RATE_LIMITED: 429002,
  INTERNAL_ERROR: 500000,
} as const;
export type ServiceCodeName = keyof typeof SERVICE_CODES;

const DESCRIPTIONS: Readonly<Record<ServiceCodeName, string>> = {
  SIGNATURE_INVALID: 'signature invalid',
  DUPLICATE_REQUEST: 'duplicate request',
  API_KEY_ILLEGAL: 'api key illegal',
  IP_NOT_ALLOWED: 'IP not allowed',
  TOKEN_EXPIRED: 'token expired',
  TOKEN_INVALID: 'token invalid',
  IP_RATE_LIMITED: 'rate limited (IP)',
  API_RATE_LIMITED: 'rate limited (API)',
  INTERNAL_ERROR: 'internal error',
};

/** Hints for the codes a user can do something about. */
const HINTS: Partial<Readonly<Record<ServiceCodeName, string>>> = {
  TOKEN_EXPIRED: 'create a new access token in the LongPort developer center',
  TOKEN_INVALID: 'check LONGPORT_ACCESS_TOKEN',
  API_KEY_ILLEGAL: 'check LONGPORT_APP_KEY',
  SIGNATURE_INVALID: 'check LONGPORT_APP_SECRET and the system clock',
};

export function serviceCodeName(code: number): ServiceCodeName | undefined {
  return (Object.keys(SERVICE_CODES) as ServiceCodeName[]).find((name) => SERVICE_CODES[name] === code);
}

/** Codes that say "not now" rather than "no": worth retrying when the call itself is safe to repeat. */
export function isTransientCode(code: number): boolean {
  return code === SERVICE_CODES.IP_RATE_LIMITED || code === SERVICE_CODES.API_RATE_LIMITED || code === SERVICE_CODES.INTERNAL_ERROR;
}

export interface FailureContext {
  /** `METHOD /path` of the failed call. */
  readonly request: string;
  readonly httpStatus: number | undefined;
  readonly traceId: string | undefined;
  /** True only when repeating the same call cannot do harm (never for order submission, replace or cancel). */
  readonly retryable: boolean;
}

/** A non-zero envelope code. `code` is the name of a known service code, or SERVICE_ERROR. */
export class ServiceError extends TraderError {
  readonly serviceCode: number;
  readonly serviceMessage: string;
  readonly httpStatus: number | undefined;
  readonly traceId: string | undefined;
  readonly retryable: boolean;
  readonly request: string;

  constructor(serviceCode: number, serviceMessage: string, context: FailureContext) {
    const name = serviceCodeName(serviceCode);
    const text = name === undefined ? serviceMessage.trim() || 'service error' : DESCRIPTIONS[name];
    const hint = name === undefined ? undefined : HINTS[name];
    super(name ?? 'SERVICE_ERROR', `${text} (${serviceCode})${hint === undefined ? '' : `: ${hint}`}`);
    this.serviceCode = serviceCode;
    this.serviceMessage = serviceMessage;
    this.httpStatus = context.httpStatus;
    this.traceId = context.traceId;
    this.retryable = context.retryable;
    this.request = context.request;
  }
}

/** CLIENT_CLOSED: the client was closed before the call was sent or while it was in flight (never retryable). */
export const TRANSPORT_FAILURES = ['TIMEOUT', 'CONNECTION_FAILED', 'HTTP_ERROR', CLIENT_CLOSED] as const;
export type TransportFailure = (typeof TRANSPORT_FAILURES)[number];

/** No usable answer: timed out, connection failed, or a bare HTTP error status without an envelope. */
export class TransportError extends TraderError {
  readonly httpStatus: number | undefined;
  readonly traceId: string | undefined;
  readonly retryable: boolean;
  readonly request: string;

  constructor(failure: TransportFailure, message: string, context: FailureContext, cause?: unknown) {
    super(failure, message, cause === undefined ? undefined : { cause });
    this.httpStatus = context.httpStatus;
    this.traceId = context.traceId;
    this.retryable = context.retryable;
    this.request = context.request;
  }
}

/** An answer we cannot use: not JSON, no envelope, or a required field missing or malformed. */
export class BadResponseError extends TraderError {
  readonly httpStatus: number | undefined;
  readonly traceId: string | undefined;
  readonly request: string;
  /** Dotted path of the offending field, when one is to blame. */
  readonly field: string | undefined;

  constructor(message: string, context: Omit<FailureContext, 'retryable'>, field?: string) {
    super('BAD_RESPONSE', message);
    this.httpStatus = context.httpStatus;
    this.traceId = context.traceId;
    this.request = context.request;
    this.field = field;
  }
}

/** Any failure of an OpenAPI call. */
export type OpenApiError = ServiceError | TransportError | BadResponseError;
