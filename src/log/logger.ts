// Structured logs (pino) with secrets redacted: app secret, access token, one-time tokens and signatures
// never reach a log line, whatever object they are nested in.
import { createRequire } from 'node:module';
import type pinoFactory from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type prettyFactory from 'pino-pretty';

export type { Logger } from 'pino';

const SECRET_KEYS = [
  'appSecret',
  'app_secret',
  'accessToken',
  'access_token',
  'token',
  'otp',
  'signature',
  'secret',
  'password',
  'authorization',
  'Authorization',
  'x-api-signature',
  'X-Api-Signature',
  'LONGPORT_APP_SECRET',
  'LONGPORT_ACCESS_TOKEN',
];

/** Redaction paths for secrets at the top level and up to three levels deep. */
export const REDACT_PATHS: readonly string[] = SECRET_KEYS.flatMap((key) => {
  const quoted = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const joined = quoted.startsWith('[') ? quoted : `.${quoted}`;
  return [quoted, `*${joined}`, `*.*${joined}`, `*.*.*${joined}`];
});

export interface LoggerOptions {
  readonly level?: string;
  /** Human-readable lines (for terminals); JSON lines otherwise. */
  readonly pretty?: boolean;
  /** Pretty lines keep their fields on the message's line instead of one per line below it. */
  readonly singleLine?: boolean;
  /** Where lines go; stderr by default, so stdout stays free for command output. */
  readonly destination?: DestinationStream;
  readonly name?: string;
}

// pino and pino-pretty load on the first logger made, not with this module: most commands that import it
// (a backtest without --verbose) only ever use the silent one.
const load = createRequire(import.meta.url);

export function createLogger(options: LoggerOptions = {}): Logger {
  const pino = load('pino') as typeof pinoFactory;
  const settings = {
    level: options.level ?? process.env['LOG_LEVEL'] ?? 'info',
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
    ...(options.name === undefined ? {} : { name: options.name }),
  };
  if (options.pretty) {
    // Only for terminals: pino-pretty and its colour and date modules cost a command's start-up time.
    const pretty = load('pino-pretty') as typeof prettyFactory;
    const stream = pretty({
      colorize: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: options.singleLine === true,
      destination: options.destination ?? 2,
      sync: true,
    });
    return pino(settings, stream);
  }
  return pino(settings, options.destination ?? pino.destination({ fd: 2, sync: true }));
}

/**
 * A logger that drops everything: the default for library code when the caller gives none. Not a pino
 * instance (so loading this module loads no pino); it has the methods this code base calls on a Logger.
 */
export const silentLogger: Logger = makeSilentLogger();

function makeSilentLogger(): Logger {
  const ignore = (): void => undefined;
  const logger = {
    level: 'silent',
    fatal: ignore,
    error: ignore,
    warn: ignore,
    info: ignore,
    debug: ignore,
    trace: ignore,
    silent: ignore,
    child: () => logger,
    isLevelEnabled: () => false,
    flush: ignore,
  };
  return logger as unknown as Logger;
}

/** Replaces every occurrence of the given secret values in a text (for error messages printed to users). */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) scrubbed = scrubbed.split(secret).join('[redacted]');
  }
  return scrubbed;
}
