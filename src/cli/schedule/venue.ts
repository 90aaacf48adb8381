// The account a schedule trades, opened once for the whole process. Paper: one simulator that every job's
// session shares (one account, one replay, kept in a state file next to the journal, so a restarted
// scheduler finds its orders and positions). Live: the LONGPORT_* account, with the access token the
// scheduler last refreshed (kept in the state dir). Either way: one HTTP client and one quote connection for
// the scheduler itself (trading days, account figures, last prices), which the sessions' quote leases share.
import { Price } from '../../domain/price.js';
import path from 'node:path';
import type { Clock } from '../../domain/clock.js';
import type { Order } from '../../domain/order.js';
import { InvalidInputError } from '../../domain/errors.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import { BadDataError } from '../../feeds/history/bad-data-error.js';
import type { Logger } from '../../log/logger.js';
import { configFromEnv, type OpenApiConfig } from '../../openapi/config.js';
import { createOpenApiHttp } from '../../openapi/http/client.js';
import { accountRateLimiter } from '../../openapi/http/rate-limiter.js';
import type { QuoteClient } from '../../openapi/socket/quote-client.js';
import { leaseQuoteClient, type QuoteLease } from '../../openapi/socket/shared-quote-client.js';
import type { SessionVenue } from '../../runtime/session.js';
import type { AccountSource } from '../../schedule/account-watch.js';
import type { ScheduleConfig } from '../../schedule/config.js';
import { tokenDigest, TokenStore } from '../../schedule/token-store.js';
import { startSimulator, type Simulator } from '../../sim/server/index.js';
import { paperAccountFile } from '../run/flags.js';
import { TOKEN_LIFETIME_MS } from '../trading/token-commands.js';

export interface ScheduleVenue {
  readonly mode: 'paper' | 'live';
  /** What each new session trades against (live: with the current token). */
  sessionVenue(): SessionVenue;
  readonly quotes: QuoteClient;
  readonly account: AccountSource;
  /** Today's orders of the account (the dashboard's open orders). */
  orders(): Promise<readonly Order[]>;
  readonly simulator: Simulator | undefined;
  /** Live with a known expiry: refreshes the access token (stored in the state dir); resolves to its expiry. */
  readonly token: { readonly expiresAt: number; readonly refresh: () => Promise<number> } | undefined;
  close(): Promise<void>;
}

export interface VenueOptions {
  readonly config: ScheduleConfig;
  /** Every symbol the jobs trade (the paper simulator replays these). */
  readonly symbols: readonly SecuritySymbol[];
  readonly clock: Clock;
  readonly logger: Logger;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Stops the paper venue's start while its data is read (a Ctrl-C): it then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

export async function openScheduleVenue(options: VenueOptions): Promise<ScheduleVenue> {
  const { config, clock, logger } = options;
  const closers: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse())
      await closer().catch((error: unknown) => logger.warn({ error: String(error) }, 'closing failed'));
  };
  try {
    const simulator = config.mode === 'paper' ? await startPaperVenue(options) : undefined;
    if (simulator !== undefined) closers.push(() => simulator.close());
    const tokens = new TokenStore(path.join(config.stateDir, 'access-token.json'), logger);
    const environment = simulator === undefined ? configFromEnv(options.env ?? process.env) : configFromEnv(simulator.env);
    let account = simulator === undefined ? withStoredToken(environment, tokens, logger) : environment;
    // The account's one limiter in this process, which every job's session paces with too: the service
    // counts the account's calls, so the dashboard's and the account checks' reads take turns with the jobs'.
    const limiter = accountRateLimiter(clock, account);
    let http = createOpenApiHttp(account, { clock, limiter, logger: logger.child({ component: 'http' }) });
    closers.push(() => http.close());
    const lease: QuoteLease = await leaseQuoteClient(account.appKey, {
      url: account.quoteWsUrl,
      otp: () => http.socketToken(),
      clock,
      logger: logger.child({ component: 'quote' }),
    });
    closers.push(() => lease.release());
    const quotes = lease.client;
    const refresh = async (): Promise<number> => {
      const fresh = await http.refreshToken(clock.now() + TOKEN_LIFETIME_MS);
      tokens.save({
        appKey: account.appKey,
        token: fresh.token,
        expiresAt: fresh.expiresAt,
        replaces: tokenDigest(environment.accessToken),
      });
      account = { ...account, accessToken: fresh.token, tokenExpiresAt: fresh.expiresAt };
      const previous = http;
      http = createOpenApiHttp(account, { clock, limiter, logger: logger.child({ component: 'http' }) });
      await previous.close();
      return fresh.expiresAt;
    };
    if (simulator === undefined && account.tokenExpiresAt === undefined) {
      logger.warn(
        "the access token's expiry is unknown (set LONGPORT_ACCESS_TOKEN_EXPIRED_AT): it will not be refreshed before it expires",
      );
    }
    return {
      mode: config.mode,
      sessionVenue: () => (simulator === undefined ? { mode: 'live', config: account } : { mode: 'paper', simulator }),
      quotes,
      account: {
        balances: () => http.accountBalance(),
        positions: () => http.positions(),
        prices: async (symbols) =>
          new Map((await quotes.quote(symbols)).map((quote) => [quote.symbol, Price.of(quote.lastDone.toFixed())])),
      },
      orders: () => http.todayOrders(),
      simulator,
      token: simulator === undefined && account.tokenExpiresAt !== undefined ? { expiresAt: account.tokenExpiresAt, refresh } : undefined,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

// The paper account: its replay plays from the start (jobs come and go, the market goes on).
async function startPaperVenue(options: VenueOptions): Promise<Simulator> {
  const { config, clock, logger } = options;
  const paper = config.paper!;
  const stateFile = paperAccountFile(config.journal);
  try {
    const simulator = await startSimulator({
      data: paper.data,
      symbols: options.symbols,
      speed: paper.speed,
      cash: paper.cash,
      onBadRow: paper.onBadRow,
      adjust: paper.adjust,
      venue: { shortSelling: paper.shortSelling, borrowFeeRate: paper.borrowFeeRate, shortMarginRatios: paper.shortMarginRatios },
      stateFile,
      clock,
      logger: logger.child({ component: 'sim' }),
      ...(paper.from === undefined ? {} : { from: paper.from }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    logger.info(
      { data: paper.data, speed: paper.speed, paperAccount: stateFile },
      `paper account in ${stateFile}, replaying ${paper.data.join(', ')} at ${paper.speed}x`,
    );
    return simulator;
  } catch (error) {
    // The loader's hint names trader run's flag; a schedule sets the policy in its config.
    if (error instanceof BadDataError) error.message = error.message.replace('use --on-bad-row skip', 'set paper.onBadRow: skip');
    if (error instanceof InvalidInputError && error.field === 'symbols') {
      throw new InvalidInputError(
        `${error.message} in ${paper.data.join(', ')}: a paper schedule replays candle files; set paper.data to SYMBOL.csv files of the jobs' symbols`,
        'paper.data',
      );
    }
    throw error;
  }
}

// The environment's account, with the token an earlier run refreshed it to, if the environment still has the old one.
function withStoredToken(config: OpenApiConfig, tokens: TokenStore, logger: Logger): OpenApiConfig {
  const stored = tokens.replacementFor(config.appKey, config.accessToken);
  if (stored === undefined) return config;
  logger.info(
    { tokenExpiresAt: new Date(stored.expiresAt).toISOString() },
    'using the access token an earlier run refreshed (kept in the state dir)',
  );
  return { ...config, accessToken: stored.token, tokenExpiresAt: stored.expiresAt };
}
