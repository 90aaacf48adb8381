// How failures reach a user on the command line: one line on stderr, a stack only with --verbose.
import { TraderError } from '../domain/errors.js';

export function formatError(error: unknown, verbose: boolean): string {
  if (verbose && error instanceof Error && error.stack !== undefined) return `error: ${error.stack}`;
  if (error instanceof TraderError || error instanceof Error) return `error: ${error.message}`;
  return `error: ${String(error)}`;
}

/** Exit status: 2 for bad input (usage), 1 for everything else. */
export function exitCodeFor(error: unknown): number {
  return error instanceof TraderError && error.code === 'INVALID_INPUT' ? 2 : 1;
}
