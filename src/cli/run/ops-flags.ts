// The flags of the watching side of `trader run` and `trader schedule` (dashboard, metrics, Telegram),
// checked before anything starts: each error names its flag. The dashboard listens on 127.0.0.1 unless
// --ui-host names another address; its token lives in a file next to the journal unless --ui-token-file
// says where; Telegram's bot token comes only from the environment.
import { dirname, join } from 'node:path';
import { InvalidInputError } from '../../domain/errors.js';
import { TELEGRAM_API_ROOT_VARIABLE, TELEGRAM_TOKEN_VARIABLE, type TelegramSettings } from '../../ops/telegram/settings.js';

export const DEFAULT_UI_PORT = 8642;
export const DEFAULT_UI_HOST = '127.0.0.1';

export interface OpsArgs {
  /** `--ui` alone is '' (yargs string), `--ui=PORT` the port. */
  readonly ui?: string | undefined;
  readonly 'ui-host'?: string | undefined;
  readonly 'ui-token-file'?: string | undefined;
  readonly 'ui-read-only'?: boolean | undefined;
  readonly 'metrics-port'?: number | undefined;
  readonly 'telegram-chat'?: readonly (string | number)[] | undefined;
}

export interface OpsFlags {
  readonly ui: { readonly host: string; readonly port: number; readonly readOnly: boolean } | undefined;
  readonly metricsPort: number | undefined;
  readonly tokenFile: string;
  readonly host: string;
  readonly telegram: TelegramSettings | undefined;
}

/** What the config file of a schedule says (flags win over it). */
export interface OpsDefaults {
  /** The token file when neither flag nor config names one. */
  readonly tokenFile: string;
  /** The port `--ui` alone means (a schedule's `ui.port`, else its health port). */
  readonly uiPort?: number | undefined;
  /** The config turns the dashboard on by itself. */
  readonly uiOn?: boolean;
  readonly host?: string | undefined;
  readonly readOnly?: boolean | undefined;
  readonly metricsPort?: number | undefined;
  readonly telegramChats?: readonly number[] | undefined;
  readonly telegramApiRoot?: string | undefined;
}

type Environment = Readonly<Record<string, string | undefined>>;

/** The journal's folder holds the token by default: `state/journal.sqlite` → `state/ui-token`. */
export function defaultTokenFile(journal: string): string {
  return join(dirname(journal), 'ui-token');
}

/** undefined when nothing watching is asked for. */
export function opsFlags(args: OpsArgs, env: Environment, defaults: OpsDefaults): OpsFlags | undefined {
  const uiAsked = args.ui !== undefined || defaults.uiOn === true;
  const port =
    args.ui === undefined || args.ui === '' || args.ui === 'true' ? (defaults.uiPort ?? DEFAULT_UI_PORT) : portFlag(args.ui, '--ui');
  const metricsPort = args['metrics-port'] === undefined ? defaults.metricsPort : portFlag(args['metrics-port'], '--metrics-port');
  const serving = uiAsked || metricsPort !== undefined;
  const host = args['ui-host'] ?? defaults.host ?? DEFAULT_UI_HOST;
  if (!serving) {
    for (const flag of ['ui-host', 'ui-token-file', 'ui-read-only'] as const)
      if (args[flag] !== undefined)
        throw new InvalidInputError(`--${flag} applies to the dashboard or metrics: add --ui (or --metrics-port)`, `--${flag}`);
  }
  if (host.trim() === '')
    throw new InvalidInputError('--ui-host: name an address to listen on, e.g. 0.0.0.0 or a LAN address', '--ui-host');
  const telegram = telegramSettings(args, env, defaults);
  if (!serving && telegram === undefined) return undefined;
  return {
    ui: uiAsked ? { host, port, readOnly: args['ui-read-only'] ?? defaults.readOnly ?? false } : undefined,
    metricsPort,
    tokenFile: args['ui-token-file'] ?? defaults.tokenFile,
    host,
    telegram,
  };
}

function telegramSettings(args: OpsArgs, env: Environment, defaults: OpsDefaults): TelegramSettings | undefined {
  const given = args['telegram-chat'];
  const chats = given === undefined ? defaults.telegramChats : given.map((chat) => chatId(String(chat)));
  if (chats === undefined || chats.length === 0) return undefined;
  const token = env[TELEGRAM_TOKEN_VARIABLE]?.trim() ?? '';
  if (token === '')
    throw new InvalidInputError(
      `Telegram needs the bot's token in ${TELEGRAM_TOKEN_VARIABLE} (from @BotFather); it is read only from the environment`,
      TELEGRAM_TOKEN_VARIABLE,
    );
  const apiRoot = env[TELEGRAM_API_ROOT_VARIABLE]?.trim() || defaults.telegramApiRoot;
  return { token, chats, ...(apiRoot === undefined || apiRoot === '' ? {} : { apiRoot: apiRoot.replace(/\/+$/, '') }) };
}

function chatId(text: string): number {
  const trimmed = text.trim();
  if (!/^-?\d{1,20}$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed)))
    throw new InvalidInputError(
      `--telegram-chat: "${text}" is not a chat id (a number; ask @userinfobot, or use a group's negative id)`,
      '--telegram-chat',
    );
  return Number(trimmed);
}

function portFlag(value: string | number, flag: string): number {
  const port = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidInputError(`${flag}: must be a port number from 0 to 65535 (0 picks a free one), got ${String(value)}`, flag);
  return port;
}
