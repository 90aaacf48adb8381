// Failures of venue requests that are not orders (cancel, replace, queries): a stable code the protocol
// server maps to the service's error codes. Rejected submissions are data, not errors.
import { TraderError } from '../../domain/errors.js';

export const VENUE_ERROR_CODES = [
  'ORDER_NOT_FOUND',
  'ORDER_CLOSED',
  'ORDER_NOT_REPLACEABLE',
  'INVALID_REPLACEMENT',
  'INSUFFICIENT_BUYING_POWER',
  'INSUFFICIENT_POSITION',
  'UNKNOWN_SYMBOL',
] as const;
export type VenueErrorCode = (typeof VENUE_ERROR_CODES)[number];

export class VenueError extends TraderError {
  declare readonly code: VenueErrorCode;

  constructor(code: VenueErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details === undefined ? undefined : { details });
  }
}
