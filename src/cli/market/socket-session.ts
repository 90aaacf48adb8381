// Runs one command over the long connection: credentials from the environment, one-time tokens from the
// HTTP client (GET /v1/socket/token), logs on stderr, and everything closed afterwards whatever happens.
import { systemClock } from '../../clock/system-clock.js';
import { configFromEnv, type OpenApiConfig } from '../../openapi/config.js';
import type { QuoteClient } from '../../openapi/socket/quote-client.js';
import type { TradeClient } from '../../openapi/socket/trade-client.js';
import type { Logger } from '../../log/logger.js';
import type { GlobalFlags } from '../trading/session.js';

interface Session {
  readonly config: OpenApiConfig;
  readonly logger: Logger;
  readonly otp: () => Promise<{ otp: string; limit: number; online: number }>;
  readonly close: () => Promise<void>;
}

async function openSession(flags: GlobalFlags): Promise<Session> {
  const config = configFromEnv();
  const [{ createLogger }, { createOpenApiHttp }] = await Promise.all([
    import('../../log/logger.js'),
    import('../../openapi/http/client.js'),
  ]);
  const logger = createLogger({ level: flags.verbose ? 'debug' : 'warn', pretty: process.stderr.isTTY === true });
  const http = createOpenApiHttp(config, { clock: systemClock, logger });
  return { config, logger, otp: () => http.socketToken(), close: () => http.close() };
}

export async function withQuoteClient<T>(flags: GlobalFlags, work: (client: QuoteClient, logger: Logger) => Promise<T>): Promise<T> {
  const session = await openSession(flags);
  try {
    const { leaseQuoteClient } = await import('../../openapi/socket/shared-quote-client.js');
    const lease = await leaseQuoteClient(session.config.appKey, {
      url: session.config.quoteWsUrl,
      otp: session.otp,
      clock: systemClock,
      logger: session.logger,
    });
    try {
      return await work(lease.client, session.logger);
    } finally {
      await lease.release();
    }
  } finally {
    await session.close();
  }
}

/** `work` gets the client before it connects, so it can subscribe to pushes first; it calls `client.open()`. */
export async function withTradeClient<T>(flags: GlobalFlags, work: (client: TradeClient, logger: Logger) => Promise<T>): Promise<T> {
  const session = await openSession(flags);
  try {
    const { TradeClient } = await import('../../openapi/socket/trade-client.js');
    const client = new TradeClient({ url: session.config.tradeWsUrl, otp: session.otp, clock: systemClock, logger: session.logger });
    try {
      return await work(client, session.logger);
    } finally {
      await client.close();
    }
  } finally {
    await session.close();
  }
}

/** Resolves on Ctrl-C (SIGINT) or SIGTERM, or when `signal` aborts. */
export function untilInterrupted(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    if (signal?.aborted) done();
    else signal?.addEventListener('abort', done, { once: true });
  });
}
