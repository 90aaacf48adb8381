// A refusal the simulator answers with an envelope: the HTTP status, the business code and the message.
// The service's own codes (PROTOCOL.md §2) come from the client's SERVICE_CODES; the order codes are the
// simulator's, documented here because the service publishes none.
import { SERVICE_CODES } from '../../../openapi/http/errors.js';
import { VenueError, type VenueErrorCode } from '../../venue/index.js';

export const SIM_CODES = {
  ...SERVICE_CODES,
  /** A parameter is missing or malformed; the message names it. */
  INVALID_PARAMETER: 400001,
  NOT_FOUND: 404001,
  BODY_TOO_LARGE: 413001,
  ORDER_NOT_FOUND: 602001,
  ORDER_CLOSED: 602002,
  ORDER_NOT_REPLACEABLE: 602003,
  INVALID_REPLACEMENT: 602004,
  INSUFFICIENT_BUYING_POWER: 602005,
  INSUFFICIENT_POSITION: 602006,
  UNKNOWN_SYMBOL: 602007,
} as const satisfies Record<string, number> & Record<VenueErrorCode, number>;

export class ServiceFailure extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }

  static invalid(field: string, problem: string): ServiceFailure {
    return new ServiceFailure(400, SIM_CODES.INVALID_PARAMETER, `invalid parameter: ${field} ${problem}`);
  }
}

/** Runs a venue call, turning its refusals (unknown order, closed order, …) into envelopes with the order codes. */
export function venueCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof VenueError) throw new ServiceFailure(400, SIM_CODES[error.code], error.message);
    throw error;
  }
}
