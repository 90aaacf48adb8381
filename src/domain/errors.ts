// The one base error of the project: every failure a user or caller can act on carries a stable `code`.

export class TraderError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options?.details;
  }
}

/**
 * The code of a call refused or cut short because its client was closed (a run's link to the venue went away):
 * nothing will answer on that client any more, so asking again cannot help.
 */
export const CLIENT_CLOSED = 'CLIENT_CLOSED';

export function isClientClosed(error: unknown): boolean {
  return error instanceof TraderError && error.code === CLIENT_CLOSED;
}

/** Bad input from a user or a file: a flag, a config field, a CSV row. `field` names what was wrong. */
export class InvalidInputError extends TraderError {
  readonly field: string | undefined;

  constructor(message: string, field?: string, details?: Record<string, unknown>) {
    super('INVALID_INPUT', message, details === undefined ? undefined : { details });
    this.field = field;
  }
}

/**
 * A port another process holds: a failure of the moment (exit status 1), not bad input, since the same flag
 * may work on a restart (the port's old holder still stopping). `flag` is what picks another port.
 */
export function portInUseError(host: string, port: number, flag: string): TraderError {
  return new TraderError('PORT_IN_USE', `port ${port} on ${host} is already in use: pick another with ${flag} (0 picks a free one)`);
}

/** The flags (or options) that choose a server's address and port, as the user wrote them: `--host`, `--ui=PORT`. */
export interface ListenFlags {
  readonly host: string;
  readonly port: string;
}

/** Why a name did not resolve, by Node's getaddrinfo code. */
const UNRESOLVED: Readonly<Record<string, string>> = {
  ENOTFOUND: 'the name does not resolve',
  EAI_AGAIN: 'the name could not be resolved for now',
};

/**
 * What a failed `listen` tells the user, naming the flag to change; other failures are returned as they are.
 * An address that is not this machine's is bad input (exit status 2). A taken port, a port this user may not
 * bind or a name that does not resolve is a failure of the moment (exit status 1): the same flags may work on
 * a restart, once the port's holder has stopped, the process may bind it (root, CAP_NET_BIND_SERVICE) or the
 * name resolves (DNS up, the name added).
 */
export function listenError(error: unknown, host: string, port: number, flags: ListenFlags): unknown {
  const code = (error as { readonly code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE') return portInUseError(host, port, flags.port);
  if (code === 'EACCES')
    return new TraderError(
      'PORT_NOT_PERMITTED',
      `port ${port} on ${host} is not permitted for this user (EACCES; ports below 1024 need root or CAP_NET_BIND_SERVICE): pick another with ${flags.port} (0 picks a free one)`,
      { cause: error },
    );
  if (code === 'EADDRNOTAVAIL')
    return new InvalidInputError(
      `${flags.host}: cannot listen on ${host} (EADDRNOTAVAIL): give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0`,
      flags.host,
    );
  if (typeof code === 'string' && UNRESOLVED[code] !== undefined)
    return new TraderError(
      'HOST_UNRESOLVED',
      `${flags.host}: cannot listen on ${host}: ${UNRESOLVED[code]} (${code}); give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0`,
      { cause: error },
    );
  return error;
}
