// A logger that makes its pino logger (createLogger) only when a line at its level or above is first written:
// a backtest gathers its warnings into a digest and most runs have none, while loading pino and making the
// logger cost every run tens of milliseconds of start-up (bench/README.md, "Start-up"). Lines come out as
// createLogger's would; it has the methods this code base calls on a Logger (as silentLogger has).
import { createLogger, type Logger, type LoggerOptions } from './logger.js';

/** pino's numeric levels. */
const LEVELS: Readonly<Record<string, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
const METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

export function createDeferredLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env['LOG_LEVEL'] ?? 'info';
  const threshold = LEVELS[level];
  // A level pino knows and this table does not: no deferring (pino decides, and rejects what it must).
  if (threshold === undefined) return createLogger(options);
  return deferred(level, threshold, () => createLogger({ ...options, level }));
}

function deferred(level: string, threshold: number, make: () => Logger): Logger {
  let made: Logger | undefined;
  const real = (): Logger => (made ??= make());
  const logger: Record<string, unknown> = {
    level,
    silent: () => undefined,
    isLevelEnabled: (name: string) => (LEVELS[name] ?? Infinity) >= threshold,
    flush: (callback?: (error?: Error) => void) => (made === undefined ? callback?.() : made.flush(callback)),
    child: (bindings: Record<string, unknown>, childOptions?: unknown) =>
      // Options of a child (its own level, serializers) are pino's business: no deferring for those.
      childOptions === undefined ? deferred(level, threshold, () => real().child(bindings)) : real().child(bindings, childOptions as never),
  };
  for (const method of METHODS) {
    const value = LEVELS[method]!;
    logger[method] = (...args: unknown[]) => {
      if (value < threshold) return;
      (real()[method] as (...line: unknown[]) => void)(...args);
    };
  }
  return logger as unknown as Logger;
}
