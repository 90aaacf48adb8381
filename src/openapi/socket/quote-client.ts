// The quote connection as an API: requests (static info, quotes, depth, trading days and sessions,
// candlesticks, history, capital flow and distribution) and reference-counted push streams, all within the
// service's call limits, with every subscription restored after a reconnect.
import { filter, mergeMap, Observable, share, type Observable as Obs } from 'rxjs';
import type { Candle } from '../../domain/candle.js';
import type { Period } from '../../domain/period.js';
import type { Depth, Quote, Trades } from '../../domain/quote.js';
import type { Market, SecuritySymbol } from '../../domain/symbol.js';
import { silentLogger, type Logger } from '../../log/logger.js';
import {
  ADJUST_TYPES,
  HISTORY_QUERY_TYPES,
  QUOTE_COMMANDS,
  QUOTE_PUSHES,
  SUB_TYPES,
  TRADE_SESSION_FILTER,
  type AdjustType,
  type SubType,
} from './commands.js';
import { SocketConnection, type ConnectionOptions } from './connection.js';
import type { ConnectionState } from './connection-state.js';
import { SocketResponseError, SubscriptionLimitError } from './errors.js';
import { historyPages, type HistoryRange } from './history-pages.js';
import { messages, type MessageCodec, type SecurityHistoryCandlestickRequest, type UserQuoteProfileResponse } from './messages.js';
import { periodCode } from './periods.js';
import { QuoteLimits } from './quote-limits.js';
import {
  candleFromMessage,
  depthFromPush,
  quoteFromPush,
  snapshotFromMessage,
  staticInfoFromMessage,
  tradesFromPush,
  type QuoteSnapshot,
  type SecurityStaticInfo,
} from './quote-mapping.js';
import {
  capitalDistributionFromMessage,
  capitalFlowFromMessage,
  compactDate,
  sessionsFromMessage,
  tradingDaysFromMessage,
  type CapitalDistributionSnapshot,
  type CapitalFlow,
  type MarketSessions,
  type TradingDays,
} from './reference-data.js';
import { SubscriptionBook } from './subscription-book.js';

export const MAX_SUBSCRIBED_SYMBOLS = 500;

export interface QuoteClientOptions extends Omit<ConnectionOptions, 'onAuthenticated'> {
  /** Language of names in the quote profile request. */
  readonly language?: string;
  /** Lower than 500 to keep headroom; never higher than what the service allows. */
  readonly maxSymbols?: number;
}

export interface CandleQuery {
  readonly adjust?: AdjustType;
  /** Include pre/post/overnight bars (cmd 27 trade_session 100) instead of the regular session only. */
  readonly allSessions?: boolean;
}

export interface OffsetQuery extends CandleQuery {
  readonly direction: 'backward' | 'forward';
  /** YYYY-MM-DD anchor; the latest bars when omitted. */
  readonly date?: string;
  /** HHMM anchor within the date, for intraday periods. */
  readonly minute?: string;
  readonly count: number;
}

export class QuoteClient {
  readonly connection: SocketConnection;
  private readonly book = new SubscriptionBook();
  private readonly limits: QuoteLimits;
  private readonly logger: Logger;
  private operations: Promise<unknown> = Promise.resolve();
  private currentProfile: UserQuoteProfileResponse | undefined;
  private readonly quotePushes: Obs<Quote>;
  private readonly depthPushes: Obs<Depth>;
  private readonly tradePushes: Obs<Trades>;

  constructor(private readonly options: QuoteClientOptions) {
    this.logger = options.logger ?? silentLogger;
    this.limits = new QuoteLimits(options.clock);
    this.connection = new SocketConnection({ ...options, onAuthenticated: (reconnected) => this.afterAuth(reconnected) });
    this.quotePushes = this.pushStream(QUOTE_PUSHES.quote, (body) => quoteFromPush(messages.pushQuote.decode(body)));
    this.depthPushes = this.pushStream(QUOTE_PUSHES.depth, (body) => depthFromPush(messages.pushDepth.decode(body)));
    this.tradePushes = this.pushStream(QUOTE_PUSHES.trades, (body) => tradesFromPush(messages.pushTrade.decode(body)));
  }

  /** Opens the connection (token, auth, quote profile). */
  static async connect(options: QuoteClientOptions): Promise<QuoteClient> {
    const client = new QuoteClient(options);
    await client.connection.open();
    return client;
  }

  get state$(): Obs<ConnectionState> {
    return this.connection.state$;
  }

  get profile(): UserQuoteProfileResponse | undefined {
    return this.currentProfile;
  }

  /** Symbols currently subscribed on the wire (any kind). */
  get subscribedSymbols(): number {
    return this.book.symbolCount;
  }

  get maxSymbols(): number {
    const profileLimit = this.currentProfile?.subscribeLimit ?? 0;
    const own = this.options.maxSymbols ?? MAX_SUBSCRIBED_SYMBOLS;
    return Math.min(own, MAX_SUBSCRIBED_SYMBOLS, profileLimit > 0 ? profileLimit : MAX_SUBSCRIBED_SYMBOLS);
  }

  quotes(symbols: readonly SecuritySymbol[]): Obs<Quote> {
    return this.subscribed('quote', this.quotePushes, symbols);
  }

  depth(symbols: readonly SecuritySymbol[]): Obs<Depth> {
    return this.subscribed('depth', this.depthPushes, symbols);
  }

  trades(symbols: readonly SecuritySymbol[]): Obs<Trades> {
    return this.subscribed('trades', this.tradePushes, symbols);
  }

  async staticInfo(symbols: readonly SecuritySymbol[]): Promise<SecurityStaticInfo[]> {
    const response = await this.call(
      QUOTE_COMMANDS.staticInfo,
      messages.multiSecurityRequest,
      { symbol: symbols },
      messages.staticInfoResponse,
    );
    return response.secuStaticInfo.map(staticInfoFromMessage);
  }

  async quote(symbols: readonly SecuritySymbol[]): Promise<QuoteSnapshot[]> {
    const response = await this.call(QUOTE_COMMANDS.quote, messages.multiSecurityRequest, { symbol: symbols }, messages.quoteResponse);
    return response.secuQuote.map(snapshotFromMessage);
  }

  async depthSnapshot(symbol: SecuritySymbol): Promise<Depth> {
    const response = await this.call(QUOTE_COMMANDS.depth, messages.securityRequest, { symbol }, messages.depthResponse);
    return depthFromPush({ symbol: response.symbol || symbol, sequence: 0, ask: response.ask, bid: response.bid });
  }

  /** Trading days of a market between two YYYY-MM-DD dates (the service allows about a month per call). */
  async tradingDays(market: Market, from: string, to: string): Promise<TradingDays> {
    const request = { market, begDay: compactDate(from), endDay: compactDate(to) };
    return tradingDaysFromMessage(
      await this.call(QUOTE_COMMANDS.tradingDays, messages.tradeDayRequest, request, messages.tradeDayResponse),
    );
  }

  async tradingSessions(): Promise<MarketSessions[]> {
    return sessionsFromMessage(
      await this.call(QUOTE_COMMANDS.tradingSessions, messages.tradePeriodRequest, {}, messages.tradePeriodResponse),
    );
  }

  /** The latest `count` candles (cmd 19), the last one possibly still forming. */
  async candlesticks(symbol: SecuritySymbol, period: Period, count: number, query: CandleQuery = {}): Promise<Candle[]> {
    const request = {
      symbol,
      period: periodCode(period),
      count,
      adjustType: ADJUST_TYPES[query.adjust ?? 'none'],
      tradeSession: query.allSessions ? TRADE_SESSION_FILTER.all : TRADE_SESSION_FILTER.regular,
    };
    const response = await this.call(QUOTE_COMMANDS.candlesticks, messages.candlestickRequest, request, messages.candlestickResponse);
    return response.candlesticks.map((candle) => candleFromMessage(candle, symbol, period));
  }

  /** One cmd 27 call by offset: `count` bars before or after an anchor date (and minute). */
  async historyByOffset(symbol: SecuritySymbol, period: Period, query: OffsetQuery): Promise<Candle[]> {
    return this.history(symbol, period, query, {
      queryType: HISTORY_QUERY_TYPES.offset,
      offsetRequest: {
        direction: query.direction === 'forward' ? 1 : 0,
        date: query.date === undefined ? '' : compactDate(query.date),
        minute: query.minute ?? '',
        count: query.count,
      },
    });
  }

  /** One cmd 27 call by date range (YYYY-MM-DD, inclusive); the service caps the bars per answer. */
  async historyByDate(symbol: SecuritySymbol, period: Period, from: string, to: string, query: CandleQuery = {}): Promise<Candle[]> {
    return this.history(symbol, period, query, {
      queryType: HISTORY_QUERY_TYPES.date,
      dateRequest: { startDate: compactDate(from), endDate: compactDate(to) },
    });
  }

  /** Every bar of a date range, page by page (each page one cmd 27 call within the 60-per-30-s limit). */
  historyPages(symbol: SecuritySymbol, period: Period, range: HistoryRange, query: CandleQuery = {}): AsyncGenerator<Candle[]> {
    return historyPages(symbol, range, (from, to) => this.historyByDate(symbol, period, from, to, query));
  }

  async capitalFlow(symbol: SecuritySymbol): Promise<CapitalFlow> {
    return capitalFlowFromMessage(
      await this.call(QUOTE_COMMANDS.capitalFlow, messages.capitalFlowRequest, { symbol }, messages.capitalFlowResponse),
    );
  }

  async capitalDistribution(symbol: SecuritySymbol): Promise<CapitalDistributionSnapshot> {
    const response = await this.call(
      QUOTE_COMMANDS.capitalDistribution,
      messages.securityRequest,
      { symbol },
      messages.capitalDistributionResponse,
    );
    return capitalDistributionFromMessage(response);
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  private async history(
    symbol: SecuritySymbol,
    period: Period,
    query: CandleQuery,
    shape: Pick<SecurityHistoryCandlestickRequest, 'queryType' | 'offsetRequest' | 'dateRequest'>,
  ): Promise<Candle[]> {
    const request: SecurityHistoryCandlestickRequest = {
      symbol,
      period: periodCode(period),
      adjustType: ADJUST_TYPES[query.adjust ?? 'none'],
      tradeSession: query.allSessions ? TRADE_SESSION_FILTER.all : TRADE_SESSION_FILTER.regular,
      ...shape,
    };
    const response = await this.call(
      QUOTE_COMMANDS.historyCandlesticks,
      messages.historyCandlestickRequest,
      request,
      messages.candlestickResponse,
    );
    return response.candlesticks.map((candle) => candleFromMessage(candle, symbol, period));
  }

  private call<Req, Res>(cmd: number, requestCodec: MessageCodec<Req>, value: Req, responseCodec: MessageCodec<Res>): Promise<Res> {
    return this.limits.run(cmd, () => this.connection.call(cmd, requestCodec, value, responseCodec));
  }

  private send(cmd: number, body: Uint8Array): Promise<Uint8Array> {
    return this.limits.run(cmd, () => this.connection.request(cmd, body));
  }

  /** Subscribe and unsubscribe calls go out one at a time, in the order consumers asked. */
  private enqueue(operation: () => Promise<unknown>): Promise<unknown> {
    const next = this.operations.then(operation, operation);
    this.operations = next.catch(() => undefined);
    return next;
  }

  private subscribe(symbols: readonly string[], kinds: readonly SubType[], isFirstPush: boolean): Promise<Uint8Array> {
    const body = messages.subscribeRequest.encode({ symbol: symbols, subType: kinds.map((kind) => SUB_TYPES[kind]), isFirstPush });
    return this.send(QUOTE_COMMANDS.subscribe, body);
  }

  private subscribed<T extends { readonly symbol: SecuritySymbol }>(
    kind: SubType,
    source: Obs<T>,
    symbols: readonly SecuritySymbol[],
  ): Obs<T> {
    return new Observable<T>((subscriber) => {
      const wanted = new Set(symbols);
      const holding = this.book.countWith([...wanted]);
      if (holding > this.maxSymbols) {
        subscriber.error(new SubscriptionLimitError(holding, this.maxSymbols));
        return undefined;
      }
      const inner = source.pipe(filter((value) => wanted.has(value.symbol))).subscribe(subscriber);
      const fresh = this.book.add([...wanted], kind);
      if (fresh.length > 0) {
        this.enqueue(() => this.subscribe(fresh, [kind], true)).catch((error: unknown) => subscriber.error(error));
      }
      return () => {
        inner.unsubscribe();
        const gone = this.book.remove([...wanted], kind);
        if (gone.length === 0 || this.connection.state.status === 'closed') return;
        const body = messages.unsubscribeRequest.encode({ symbol: gone, subType: [SUB_TYPES[kind]], unsubAll: false });
        this.enqueue(() => this.send(QUOTE_COMMANDS.unsubscribe, body)).catch((error: unknown) => {
          // Closing the connection drops its subscriptions anyway: only a failure on a live link is news.
          if (this.connection.state.status !== 'closed')
            this.logger.warn({ symbols: gone, error: (error as Error).message }, 'unsubscribe failed');
        });
      };
    });
  }

  private pushStream<T>(cmd: number, decode: (body: Uint8Array) => T): Obs<T> {
    return this.connection.pushes$.pipe(
      filter((packet) => packet.cmd === cmd),
      mergeMap((packet) => {
        try {
          return [decode(packet.body)];
        } catch (error) {
          this.logger.warn({ cmd, error: (error as Error).message }, 'dropping an unreadable push');
          return [];
        }
      }),
      share(),
    );
  }

  /** After every auth: load the profile (its limits), and after a reconnect restore every subscription. */
  private async afterAuth(reconnected: boolean): Promise<void> {
    try {
      const profile = await this.connection.call(
        QUOTE_COMMANDS.profile,
        messages.quoteProfileRequest,
        { language: this.options.language ?? 'en' },
        messages.quoteProfileResponse,
      );
      this.currentProfile = profile;
      this.limits.applyProfile(profile.rateLimit);
    } catch (error) {
      if (!(error instanceof SocketResponseError)) throw error;
      this.logger.warn({ error: error.message }, 'no quote profile; keeping the documented limits');
    }
    if (!reconnected) return;
    for (const [kind, symbols] of this.book.byKind()) await this.subscribe(symbols, [kind], false);
  }
}
