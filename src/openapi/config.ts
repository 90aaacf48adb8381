// Credentials and endpoints, read from the same environment variables as the official SDK, so a user's
// existing LongPort setup works unchanged.
import { TraderError } from '../domain/errors.js';

export interface OpenApiConfig {
  readonly appKey: string;
  readonly appSecret: string;
  readonly accessToken: string;
  readonly httpUrl: string;
  readonly quoteWsUrl: string;
  readonly tradeWsUrl: string;
  /** Epoch ms when the access token expires, when known (LONGPORT_ACCESS_TOKEN_EXPIRED_AT, RFC 3339). */
  readonly tokenExpiresAt: number | undefined;
}

export const OFFICIAL_ENDPOINTS = {
  httpUrl: 'https://openapi.longportapp.com',
  quoteWsUrl: 'wss://openapi-quote.longportapp.com/v2',
  tradeWsUrl: 'wss://openapi-trade.longportapp.com/v2',
} as const;

export const CREDENTIAL_VARIABLES = ['LONGPORT_APP_KEY', 'LONGPORT_APP_SECRET', 'LONGPORT_ACCESS_TOKEN'] as const;

export class MissingCredentialsError extends TraderError {
  constructor(readonly variables: readonly string[]) {
    super(
      'MISSING_CREDENTIALS',
      `${variables.join(', ')} ${variables.length === 1 ? 'is' : 'are'} not set: export your LongPort app key, app secret and access token ` +
        '(or start `trader sim` and paste the lines it prints)',
    );
  }
}

type Environment = Readonly<Record<string, string | undefined>>;

export function configFromEnv(env: Environment = process.env): OpenApiConfig {
  const value = (name: string): string | undefined => {
    const text = env[name]?.trim();
    return text === undefined || text === '' ? undefined : text;
  };
  const missing = CREDENTIAL_VARIABLES.filter((name) => value(name) === undefined);
  if (missing.length > 0) throw new MissingCredentialsError(missing);
  const expiry = value('LONGPORT_ACCESS_TOKEN_EXPIRED_AT');
  const tokenExpiresAt = expiry === undefined ? undefined : Date.parse(expiry);
  if (tokenExpiresAt !== undefined && Number.isNaN(tokenExpiresAt)) {
    throw new TraderError('INVALID_INPUT', `LONGPORT_ACCESS_TOKEN_EXPIRED_AT: "${expiry}" is not an RFC 3339 time`);
  }
  return {
    appKey: value('LONGPORT_APP_KEY')!,
    appSecret: value('LONGPORT_APP_SECRET')!,
    accessToken: value('LONGPORT_ACCESS_TOKEN')!,
    httpUrl: stripSlash(value('LONGPORT_HTTP_URL') ?? OFFICIAL_ENDPOINTS.httpUrl),
    quoteWsUrl: value('LONGPORT_QUOTE_WS_URL') ?? OFFICIAL_ENDPOINTS.quoteWsUrl,
    tradeWsUrl: value('LONGPORT_TRADE_WS_URL') ?? OFFICIAL_ENDPOINTS.tradeWsUrl,
    tokenExpiresAt,
  };
}

function stripSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
