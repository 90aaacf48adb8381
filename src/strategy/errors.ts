// Failures of a strategy file, each naming the file (or strategy) and the cause in one line.
import { TraderError } from '../domain/index.js';

/** A strategy file that cannot be loaded or configured: missing, syntax error, wrong export, bad params. */
export class StrategyLoadError extends TraderError {
  readonly file: string;

  /** `message` replaces the default `file: reason` (a compile error names file:line:col itself). */
  constructor(file: string, reason: string, cause?: unknown, message = `${file}: ${reason}`) {
    super('STRATEGY_LOAD_FAILED', message, cause === undefined ? undefined : { cause });
    this.file = file;
  }
}

/** A strategy that threw in run() or errored its intent stream; it is stopped, the others go on. */
export class StrategyFailedError extends TraderError {
  readonly strategy: string;
  readonly source: string;

  constructor(strategy: string, source: string, cause: unknown) {
    super('STRATEGY_FAILED', `strategy ${strategy} (${source}) failed: ${describeError(cause)}`, { cause });
    this.strategy = strategy;
    this.source = source;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  return String(error);
}
