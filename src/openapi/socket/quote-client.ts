// The quote connection as an API: the request calls of QuoteRequests, reference-counted push streams (quote,
// depth, broker queue, trades), candlestick subscriptions built from those pushes, and the local realtime state
// every push feeds, all within the service's call limits and restored after a reconnect.
import { filter, Observable, Subject, type Observable as Obs } from 'rxjs';
import type { Candle } from '../../domain/candle.js';
import { InvalidInputError } from '../../domain/errors.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import type { Period } from '../../domain/period.js';
import type { Depth, Quote, Trades } from '../../domain/quote.js';
import { marketOf, type Market, type SecuritySymbol } from '../../domain/symbol.js';
import { localDate } from '../../domain/time-zone.js';
import { silentLogger, type Logger } from '../../log/logger.js';
import { QUOTE_COMMANDS, QUOTE_PUSHES, SUB_TYPES, type SubType } from './commands.js';
import { SocketConnection, type ConnectionOptions } from './connection.js';
import type { ConnectionState } from './connection-state.js';
import { SocketResponseError, SubscriptionLimitError } from './errors.js';
import { CandleSeries, type CandlestickUpdate } from './live-candles.js';
import { messages, type MessageCodec, type UserQuoteProfileResponse } from './messages.js';
import { tradeSessionFromCode } from './periods.js';
import type { PushPacket } from './codec.js';
import { brokersFromMessage, quotePackagesFromDetail, type QuotePackage, type SecurityBrokers } from './quote-extras-mapping.js';
import { QuoteLimits } from './quote-limits.js';
import { candleFromMessage, depthFromPush, quoteFromPush, tradesFromPush } from './quote-mapping.js';
import { QuoteRequests, type CandleQuery } from './quote-requests.js';
import { RealtimeState } from './realtime-state.js';
import { SubscriptionBook } from './subscription-book.js';

export type { CandleQuery, OffsetQuery, WarrantQuery } from './quote-requests.js';

export const MAX_SUBSCRIBED_SYMBOLS = 500;
/** Candles the service is asked for when a candlestick subscription starts (the SDK's count). */
const CANDLE_SEED_COUNT = 1000;
const PUSH_QUOTE_TAG_EOD = 1;

export interface QuoteClientOptions extends Omit<ConnectionOptions, 'onAuthenticated'> {
  /** Language of names in the quote profile request. */
  readonly language?: string;
  /** Lower than 500 to keep headroom; never higher than what the service allows. */
  readonly maxSymbols?: number;
  /** `false` sends calls without pacing them (for a local server that enforces its own limits, e.g. in tests). */
  readonly callLimits?: false;
}

/** What the service holds for this connection, plus the candlestick periods kept locally. */
export interface QuoteSubscription {
  readonly symbol: string;
  readonly subTypes: readonly SubType[];
  readonly candlesticks: readonly Period[];
}

const SUB_TYPE_NAMES = Object.fromEntries(Object.entries(SUB_TYPES).map(([name, code]) => [code, name as SubType]));

export class QuoteClient extends QuoteRequests {
  readonly connection: SocketConnection;
  /** Everything the pushes told so far, merged as the official SDK merges it; see RealtimeState. */
  readonly realtime: RealtimeState;
  private readonly book = new SubscriptionBook();
  private readonly limits: QuoteLimits;
  private readonly logger: Logger;
  private operations: Promise<unknown> = Promise.resolve();
  private currentProfile: UserQuoteProfileResponse | undefined;
  private readonly quotePushes = new Subject<Quote>();
  private readonly depthPushes = new Subject<Depth>();
  private readonly brokerPushes = new Subject<SecurityBrokers>();
  private readonly tradePushes = new Subject<Trades>();
  /** Half trading days (YYYY-MM-DD) per market, asked once when the market's first candle series starts. */
  private readonly halfDays = new Map<Market, ReadonlySet<string>>();
  private readonly boards = new Map<SecuritySymbol, string>();
  private readonly startingCandles = new Map<string, Promise<readonly Candle[]>>();
  /** Open liveCandlesticks streams per `symbol|period`. */
  private readonly liveCandleStreams = new Map<string, number>();

  constructor(private readonly options: QuoteClientOptions) {
    super();
    this.logger = options.logger ?? silentLogger;
    this.limits = new QuoteLimits(options.clock);
    this.realtime = new RealtimeState((market, time) => this.halfDays.get(market)?.has(localDate(time, timeZoneOf(market))) === true);
    this.connection = new SocketConnection({ ...options, onAuthenticated: (reconnected) => this.afterAuth(reconnected) });
    this.connection.pushes$.subscribe({
      next: (packet) => this.onPush(packet),
      complete: () => {
        for (const subject of [this.quotePushes, this.depthPushes, this.brokerPushes, this.tradePushes]) subject.complete();
        this.realtime.complete();
      },
    });
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

  /** The account's member id, from the quote profile (0 before it loaded). */
  get memberId(): number {
    return this.currentProfile?.memberId ?? 0;
  }

  /** The account's quote level, e.g. "LV1". */
  get quoteLevel(): string {
    return this.currentProfile?.quoteLevel ?? '';
  }

  /** The quote packages the account holds, with their validity. */
  quotePackages(): QuotePackage[] {
    return quotePackagesFromDetail(this.currentProfile?.quoteLevelDetail);
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

  /** Broker queue pushes (cmd 103; HK securities). */
  brokers(symbols: readonly SecuritySymbol[]): Obs<SecurityBrokers> {
    return this.subscribed('brokers', this.brokerPushes, symbols);
  }

  trades(symbols: readonly SecuritySymbol[]): Obs<Trades> {
    return this.subscribed('trades', this.tradePushes, symbols);
  }

  /** Resolves once every subscribe and unsubscribe asked for so far has been answered. */
  async whenSubscribed(): Promise<void> {
    await this.operations;
  }

  /** What the service holds for this connection (cmd 5), with the local candlestick periods of each symbol. */
  async subscriptions(): Promise<QuoteSubscription[]> {
    const response = await this.call(QUOTE_COMMANDS.subscriptions, messages.subscriptionRequest, {}, messages.subscriptionResponse);
    const periods = this.realtime.candlePeriods();
    const rows = response.subList.map((entry) => ({
      symbol: entry.symbol,
      subTypes: entry.subType.flatMap((code) => SUB_TYPE_NAMES[code] ?? []),
      candlesticks: periods.get(entry.symbol as SecuritySymbol) ?? [],
    }));
    for (const [symbol, held] of periods)
      if (!rows.some((row) => row.symbol === symbol)) rows.push({ symbol, subTypes: [], candlesticks: held });
    return rows;
  }

  /**
   * Starts live candles of a symbol and period: returns the service's latest candles, then keeps them up to
   * date from quote and trade pushes (see `candlesticks$` and `realtime`). Subscribing again with the same
   * sessions returns the candles kept so far.
   */
  subscribeCandlesticks(symbol: SecuritySymbol, period: Period, query: Pick<CandleQuery, 'allSessions'> = {}): Promise<readonly Candle[]> {
    // One start per series at a time: a second caller waits for the first instead of starting it again.
    const key = `${symbol}|${period}|${query.allSessions === true}`;
    let starting = this.startingCandles.get(key);
    if (starting === undefined) {
      starting = this.startCandlesticks(symbol, period, query.allSessions === true).finally(() => this.startingCandles.delete(key));
      this.startingCandles.set(key, starting);
    }
    return starting;
  }

  private async startCandlesticks(symbol: SecuritySymbol, period: Period, allSessions: boolean): Promise<readonly Candle[]> {
    const held = this.realtime.candleSeries(symbol, period);
    if (held !== undefined && held.allSessions === allSessions) return held.candlesticks;
    const board = await this.boardOf(symbol);
    const seed = await this.latestCandleMessages(symbol, period, CANDLE_SEED_COUNT, { allSessions });
    await this.loadHalfDays(marketOf(symbol));
    const series = new CandleSeries(
      symbol,
      marketOf(symbol),
      period,
      board,
      allSessions,
      seed.map((message) => ({ candle: candleFromMessage(message, symbol, period), session: tradeSessionFromCode(message.tradeSession) })),
    );
    this.realtime.addSeries(series);
    if (held === undefined) await this.hold([symbol], ['quote', 'trades']);
    return series.candlesticks;
  }

  /** Stops the live candles of a symbol and period; the quote and trade pushes stop once nothing else needs them. */
  async unsubscribeCandlesticks(symbol: SecuritySymbol, period: Period): Promise<void> {
    if (this.realtime.removeSeries(symbol, period)) await this.release([symbol], ['quote', 'trades']);
  }

  /** Every change of every candlestick subscription. */
  get candlesticks$(): Obs<CandlestickUpdate> {
    return this.realtime.candlesticks$;
  }

  /**
   * Live candles as a stream: subscribes on subscription, emits each change, and unsubscribes when the last
   * stream of the symbol and period is torn down.
   */
  liveCandlesticks(symbol: SecuritySymbol, period: Period, query: Pick<CandleQuery, 'allSessions'> = {}): Obs<CandlestickUpdate> {
    return new Observable<CandlestickUpdate>((subscriber) => {
      const key = `${symbol}|${period}`;
      const inner = this.realtime.candlesticks$
        .pipe(filter((update) => update.symbol === symbol && update.period === period))
        .subscribe(subscriber);
      this.liveCandleStreams.set(key, (this.liveCandleStreams.get(key) ?? 0) + 1);
      this.subscribeCandlesticks(symbol, period, query).catch((error: unknown) => subscriber.error(error));
      return () => {
        inner.unsubscribe();
        const left = (this.liveCandleStreams.get(key) ?? 1) - 1;
        if (left > 0) {
          this.liveCandleStreams.set(key, left);
          return;
        }
        this.liveCandleStreams.delete(key);
        if (this.connection.state.status !== 'closed') void this.unsubscribeCandlesticks(symbol, period).catch(() => undefined);
      };
    });
  }

  /** The latest merged quote of each symbol with pushes so far (the SDK's realtimeQuote). */
  realtimeQuote(symbols: readonly SecuritySymbol[]): Quote[] {
    return this.realtime.quote(symbols);
  }

  realtimeDepth(symbol: SecuritySymbol) {
    return this.realtime.depth(symbol);
  }

  realtimeBrokers(symbol: SecuritySymbol) {
    return this.realtime.brokers(symbol);
  }

  realtimeTrades(symbol: SecuritySymbol, count: number) {
    return this.realtime.trades(symbol, count);
  }

  realtimeCandlesticks(symbol: SecuritySymbol, period: Period, count: number): Candle[] {
    return this.realtime.candlesticks(symbol, period, count);
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  protected call<Req, Res>(cmd: number, requestCodec: MessageCodec<Req>, value: Req, responseCodec: MessageCodec<Res>): Promise<Res> {
    const call = () => this.connection.call(cmd, requestCodec, value, responseCodec);
    return this.options.callLimits === false ? call() : this.limits.run(cmd, call);
  }

  private send(cmd: number, body: Uint8Array): Promise<Uint8Array> {
    const request = () => this.connection.request(cmd, body);
    return this.options.callLimits === false ? request() : this.limits.run(cmd, request);
  }

  private async boardOf(symbol: SecuritySymbol): Promise<string> {
    let board = this.boards.get(symbol);
    if (board === undefined) {
      const [info] = await this.staticInfo([symbol]);
      if (info === undefined) throw new InvalidInputError(`${symbol}: the service knows no such security`, 'symbol');
      board = info.board;
      this.boards.set(symbol, board);
    }
    return board;
  }

  /** Half days of the market from 5 days ago to 25 ahead (the window the SDK asks for). */
  private async loadHalfDays(market: Market): Promise<void> {
    if (this.halfDays.has(market)) return;
    const day = (offset: number): string => new Date(this.options.clock.now() + offset * 86_400_000).toISOString().slice(0, 10);
    try {
      this.halfDays.set(market, new Set((await this.tradingDays(market, day(-5), day(25))).halfTradingDays));
    } catch (error) {
      this.logger.warn({ market, error: (error as Error).message }, 'no trading days; candles assume full days');
      this.halfDays.set(market, new Set());
    }
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

  /** Takes a reference on each (symbol, kind); subscribes on the wire what was not held yet. */
  private async hold(symbols: readonly SecuritySymbol[], kinds: readonly SubType[]): Promise<void> {
    const holding = this.book.countWith(symbols);
    if (holding > this.maxSymbols) throw new SubscriptionLimitError(holding, this.maxSymbols);
    for (const kind of kinds) {
      const fresh = this.book.add(symbols, kind);
      if (fresh.length > 0) await this.enqueue(() => this.subscribe(fresh, [kind], true));
    }
  }

  /** Drops a reference on each (symbol, kind); unsubscribes on the wire what nothing holds any more. */
  private async release(symbols: readonly SecuritySymbol[], kinds: readonly SubType[]): Promise<void> {
    for (const kind of kinds) {
      const gone = this.book.remove(symbols, kind);
      if (gone.length === 0 || this.connection.state.status === 'closed') continue;
      const body = messages.unsubscribeRequest.encode({ symbol: gone, subType: [SUB_TYPES[kind]], unsubAll: false });
      await this.enqueue(() => this.send(QUOTE_COMMANDS.unsubscribe, body));
    }
  }

  private subscribed<T extends { readonly symbol: SecuritySymbol }>(
    kind: SubType,
    source: Obs<T>,
    symbols: readonly SecuritySymbol[],
  ): Obs<T> {
    return new Observable<T>((subscriber) => {
      const wanted = [...new Set(symbols)];
      const holding = this.book.countWith(wanted);
      if (holding > this.maxSymbols) {
        subscriber.error(new SubscriptionLimitError(holding, this.maxSymbols));
        return undefined;
      }
      const set = new Set<string>(wanted);
      const inner = source.pipe(filter((value) => set.has(value.symbol))).subscribe(subscriber);
      this.hold(wanted, [kind]).catch((error: unknown) => subscriber.error(error));
      return () => {
        inner.unsubscribe();
        this.release(wanted, [kind]).catch((error: unknown) => {
          // Closing the connection drops its subscriptions anyway: only a failure on a live link is news.
          if (this.connection.state.status !== 'closed')
            this.logger.warn({ symbols: wanted, error: (error as Error).message }, 'unsubscribe failed');
        });
      };
    });
  }

  /** Decodes a push, merges it into the realtime state, then hands it to the streams. */
  private onPush(packet: PushPacket): void {
    try {
      switch (packet.cmd) {
        case QUOTE_PUSHES.quote: {
          const message = messages.pushQuote.decode(packet.body);
          if (message.tag === PUSH_QUOTE_TAG_EOD) return;
          this.quotePushes.next(this.realtime.applyQuote(quoteFromPush(message)));
          return;
        }
        case QUOTE_PUSHES.depth: {
          const depth = depthFromPush(messages.pushDepth.decode(packet.body));
          this.realtime.applyDepth(depth);
          this.depthPushes.next(depth);
          return;
        }
        case QUOTE_PUSHES.brokers: {
          const brokers = brokersFromMessage(messages.pushBrokers.decode(packet.body));
          this.realtime.applyBrokers(brokers);
          this.brokerPushes.next(brokers);
          return;
        }
        case QUOTE_PUSHES.trades: {
          const trades = tradesFromPush(messages.pushTrade.decode(packet.body));
          this.realtime.applyTrades(trades);
          this.tradePushes.next(trades);
          return;
        }
      }
    } catch (error) {
      this.logger.warn({ cmd: packet.cmd, error: (error as Error).message }, 'dropping an unreadable push');
    }
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
