// The OpenAPI as a run sees it (live, or paper against the in-process simulator): the signed HTTP client,
// the trade connection (order pushes) behind the Broker port, and the account's shared quote connection
// behind the MarketData port. Everything opened here is closed by close(), also when opening fails halfway.
import type { Clock } from '../domain/clock.js';
import { readWithRetry } from '../execution/read-retry.js';
import { LiveMarketData } from '../feeds/live/live-market-data.js';
import type { Logger } from '../log/logger.js';
import { OpenApiBroker } from '../openapi/broker/index.js';
import type { OpenApiConfig } from '../openapi/config.js';
import { createOpenApiHttp, type OpenApiHttp, type OpenApiHttpOptions } from '../openapi/http/client.js';
import { accountRateLimiter, TRADE_RATE_LIMIT } from '../openapi/http/rate-limiter.js';
import type { QuoteClient } from '../openapi/socket/quote-client.js';
import { leaseQuoteClient } from '../openapi/socket/shared-quote-client.js';
import { TradeClient } from '../openapi/socket/trade-client.js';

export interface VenueLinkOptions {
  readonly config: OpenApiConfig;
  /** Wall clock: request timeouts, keepalive, reconnects. */
  readonly clock: Clock;
  /**
   * The market's clock for closing candles: in paper mode the in-process replay's, which keeps in step with
   * the run (bars close at their end exactly); `clock` when omitted.
   */
  readonly marketClock?: Clock;
  readonly logger: Logger;
  /** Overrides of the HTTP client's settings (benchmarks open up its pacing). */
  readonly http?: Partial<Omit<OpenApiHttpOptions, 'clock' | 'logger'>>;
  /**
   * False for an in-process simulator that enforces no quote limits: nothing to pace against, and pacing on
   * a virtual clock that only the replay moves would hold the subscriptions up before the replay starts.
   */
  readonly quoteCallLimits?: false;
  /** Closes what is open so far when it aborts (the start is abandoned), so the opening fails at once. */
  readonly signal?: AbortSignal;
}

export interface VenueLink {
  readonly http: OpenApiHttp;
  readonly trade: TradeClient;
  readonly quotes: QuoteClient;
  readonly broker: OpenApiBroker;
  readonly marketData: LiveMarketData;
  /** Closes everything: HTTP calls waiting or in flight fail (not retryable), the connections stop reconnecting. */
  close(): Promise<void>;
}

export async function openVenueLink(options: VenueLinkOptions): Promise<VenueLink> {
  const { config, clock, logger } = options;
  const rateLimit = options.http?.rateLimit ?? TRADE_RATE_LIMIT;
  // Paced with every other client of the account in this process (a schedule's own, other jobs'): the service
  // counts the account's calls, not this client's.
  const limiter = accountRateLimiter(clock, config, rateLimit);
  const http = createOpenApiHttp(config, { ...options.http, limiter, clock, logger: logger.child({ component: 'http' }) });
  // Asked when a connection opens (and reopens): a transient failure is retried, not the end of the run.
  const otp = (): ReturnType<OpenApiHttp['socketToken']> =>
    readWithRetry(() => http.socketToken(), 'the one-time password for the quote and trade connections', { clock, logger });
  const trade = new TradeClient({ url: config.tradeWsUrl, otp, clock, logger: logger.child({ component: 'trade' }) });
  const broker = new OpenApiBroker(http, trade, rateLimit.windowMs);
  // Whoever closes the link is done with it (a session's end, or an aborted run): calls still in flight fail.
  const closers: (() => Promise<void>)[] = [() => http.close({ abortInFlight: true })];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse())
      await closer().catch((error: unknown) => logger.warn({ error: describe(error) }, 'closing a connection failed'));
  };
  const { signal } = options;
  const onAbort = (): void => void close();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    signal?.throwIfAborted();
    closers.push(() => trade.close());
    await trade.open();
    const lease = await leaseQuoteClient(config.appKey, {
      url: config.quoteWsUrl,
      otp,
      clock,
      logger: logger.child({ component: 'quote' }),
      ...(options.quoteCallLimits === false ? { callLimits: false as const } : {}),
    });
    closers.push(() => lease.release());
    const marketData = new LiveMarketData(lease.client, {
      clock: options.marketClock ?? clock,
      lockstep: options.marketClock !== undefined,
      logger: logger.child({ component: 'candles' }),
    });
    signal?.throwIfAborted();
    return { http, trade, quotes: lease.client, broker, marketData, close };
  } catch (error) {
    await close();
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
