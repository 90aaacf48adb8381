// Which failures of an order submission are definite refusals (the service answered "not accepted") and
// which leave the outcome in doubt. Only a refusal may be reported as "not placed" without looking the order
// up: a timeout, a lost or unreadable answer, a 5xx or a rate limit may follow an order that did land.
import { BadResponseError, ServiceError, SERVICE_CODES, TransportError, isTransientCode } from '../http/errors.js';

/**
 * True when the service answered with a business code that means the request was not accepted: bad
 * parameters, no buying power, unknown symbol, or an authentication failure checked before anything runs.
 * A duplicate-request answer (403202) is not one: an identical earlier request may have placed the order.
 */
export function isDefiniteRefusal(error: unknown): error is ServiceError {
  if (!(error instanceof ServiceError)) return false;
  if (isTransientCode(error.serviceCode) || error.serviceCode === SERVICE_CODES.DUPLICATE_REQUEST) return false;
  const status = error.httpStatus;
  return status === undefined || (status < 500 && status !== 429);
}

/** A one-line description of a submit failure for logs and denial messages. */
export function describeSubmitFailure(error: unknown): string {
  if (error instanceof ServiceError) return `${error.message}${error.traceId === undefined ? '' : ` [trace ${error.traceId}]`}`;
  if (error instanceof TransportError || error instanceof BadResponseError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The simulator's code for a symbol it has no market data for (the service publishes no code of its own). */
export const UNKNOWN_SYMBOL_SERVICE_CODE = 602007;

export function isUnknownSymbolAnswer(error: unknown): error is ServiceError {
  return error instanceof ServiceError && error.serviceCode === UNKNOWN_SYMBOL_SERVICE_CODE;
}
