// How failures reach a user on the command line: one line on stderr, a stack only with --verbose.
import { TraderError } from '../domain/errors.js';

export function formatError(error: unknown, verbose: boolean): string {
  if (verbose && error instanceof Error && error.stack !== undefined) return `error: ${error.stack}${causeStack(error)}`;
  if (error instanceof TraderError || error instanceof Error) return `error: ${error.message}`;
  return `error: ${String(error)}`;
}

/** Codes of bad input: the user's flags, files or strategy, not a failure of the run. */
const BAD_INPUT_CODES: ReadonlySet<string> = new Set(['INVALID_INPUT', 'STRATEGY_LOAD_FAILED']);

/** Exit status: 2 for bad input (usage, an unloadable strategy), 1 for everything else. */
export function exitCodeFor(error: unknown): number {
  return error instanceof TraderError && BAD_INPUT_CODES.has(error.code) ? 2 : 1;
}

// With --verbose, where the underlying failure happened (a strategy's own line, via its source map) matters most.
function causeStack(error: Error): string {
  const cause = error.cause;
  return cause instanceof Error && cause.stack !== undefined ? `\ncaused by: ${cause.stack}` : '';
}
