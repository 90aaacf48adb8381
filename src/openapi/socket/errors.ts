// Failures of the long connection, each with a stable code so callers can tell a lost link from a refusal.
import { TraderError } from '../../domain/errors.js';

/** A frame that is not a valid packet: truncated, oversized, bad gzip, unknown type. */
export class PacketDecodeError extends TraderError {
  constructor(message: string) {
    super('SOCKET_BAD_PACKET', `bad packet: ${message}`);
  }
}

/** The service answered a request with a non-zero status (its Error body decoded when present). */
export class SocketResponseError extends TraderError {
  constructor(
    readonly command: number,
    readonly status: number,
    readonly serviceCode: number | undefined,
    readonly serviceMessage: string,
  ) {
    super(
      'SOCKET_REQUEST_FAILED',
      `command ${command} failed with status ${status}${serviceCode === undefined ? '' : ` (code ${serviceCode})`}${serviceMessage === '' ? '' : `: ${serviceMessage}`}`,
      { details: { command, status, serviceCode } },
    );
  }
}

export class SocketTimeoutError extends TraderError {
  constructor(
    readonly command: number,
    readonly timeoutMs: number,
  ) {
    super('SOCKET_TIMEOUT', `command ${command} got no response within ${timeoutMs} ms`);
  }
}

/** The link went away (dropped, closed by the server or by us) while a request waited. */
export class ConnectionLostError extends TraderError {
  constructor(reason: string) {
    super('SOCKET_CONNECTION_LOST', `connection lost: ${reason}`);
  }
}

/** Connecting was refused before or during authentication (no token, online >= limit, auth error). */
export class ConnectionRefusedError extends TraderError {
  constructor(message: string) {
    super('SOCKET_CONNECTION_REFUSED', message);
  }
}

export class SubscriptionLimitError extends TraderError {
  constructor(
    readonly requested: number,
    readonly limit: number,
  ) {
    super(
      'SOCKET_TOO_MANY_SYMBOLS',
      `subscribing would hold ${requested} symbols; the service allows at most ${limit} per account (unsubscribe some first)`,
    );
  }
}
