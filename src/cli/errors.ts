// How failures reach a user on the command line: one line on stderr, a stack only with --verbose.

export function formatError(error: unknown, verbose: boolean): string {
  if (verbose && error instanceof Error && error.stack !== undefined) return `error: ${error.stack}${causeStack(error)}`;
  if (error instanceof Error) return `error: ${error.message}`;
  return `error: ${String(error)}`;
}

/** Codes of bad input: the user's flags, files or strategy, not a failure of the run. */
const BAD_INPUT_CODES: ReadonlySet<string> = new Set(['INVALID_INPUT', 'STRATEGY_LOAD_FAILED']);

/**
 * Exit status: 2 for bad input (usage, an unloadable strategy), 1 for everything else. Told by the error's
 * code, not its class: a command loaded beside the start-up snapshot throws dist/'s copy of TraderError.
 */
export function exitCodeFor(error: unknown): number {
  const code = error instanceof Error ? (error as { readonly code?: unknown }).code : undefined;
  return typeof code === 'string' && BAD_INPUT_CODES.has(code) ? 2 : 1;
}

// With --verbose, where the underlying failure happened (a strategy's own line, via its source map) matters most.
function causeStack(error: Error): string {
  const cause = error.cause;
  return cause instanceof Error && cause.stack !== undefined ? `\ncaused by: ${cause.stack}` : '';
}
