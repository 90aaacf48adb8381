// The quote side of the protocol on a SocketTestServer: canned reference data, candle history with a small
// page size, server-side subscription sets per link, and pushes only to links subscribed to the symbol.
import type { Candle } from '../../../src/domain/candle.js';
import { timeZoneOf } from '../../../src/domain/market-hours.js';
import type { Quote } from '../../../src/domain/quote.js';
import { marketOf, parseSymbol } from '../../../src/domain/symbol.js';
import { localDate } from '../../../src/domain/time-zone.js';
import { encodePacket, type EncodeOptions } from '../../../src/openapi/socket/codec.js';
import { QUOTE_COMMANDS, QUOTE_PUSHES, SUB_TYPES } from '../../../src/openapi/socket/commands.js';
import { messages, type RateLimitEntry } from '../../../src/openapi/socket/messages.js';
import { messageFromCandle, pushFromQuote } from '../../../src/openapi/socket/quote-mapping.js';
import type { ServerLink, SocketTestServer } from './socket-test-server.js';

export interface QuoteServiceOptions {
  readonly rateLimits?: readonly RateLimitEntry[];
  /** Bars per cmd 27 answer. */
  readonly pageSize?: number;
  /** Candles by symbol, for cmd 19 (the last `count`) and cmd 27. */
  readonly candles?: Readonly<Record<string, readonly Candle[]>>;
  /** Symbols the service does not know: left out of static info answers, as the service leaves them out. */
  readonly unknown?: readonly string[];
  /** Answers this many cmd 27 calls, then holds every later one unanswered (a stalled service). */
  readonly holdPagesAfter?: number;
}

export class QuoteTestService {
  /** Server-side subscriptions per link: symbol → sub types. */
  readonly subscriptions = new Map<ServerLink, Map<string, Set<number>>>();
  /** Resolves when the first cmd 27 call beyond `holdPagesAfter` arrives. */
  readonly pageHeld: Promise<void>;

  constructor(
    readonly server: SocketTestServer,
    options: QuoteServiceOptions = {},
  ) {
    const compact = (date: string): string => date.replaceAll('-', '');
    let markHeld = (): void => undefined;
    this.pageHeld = new Promise((resolve) => (markHeld = resolve));
    let pages = 0;
    server
      .handle(QUOTE_COMMANDS.profile, () => ({
        body: messages.quoteProfileResponse.encode({
          memberId: 1,
          quoteLevel: 'L1',
          subscribeLimit: 500,
          historyCandlestickLimit: 100,
          rateLimit: options.rateLimits ?? [],
        }),
      }))
      .handle(QUOTE_COMMANDS.subscribe, (request, link) => {
        const body = messages.subscribeRequest.decode(request.body);
        const held = this.held(link);
        for (const symbol of body.symbol) for (const type of body.subType) held.set(symbol, new Set([...(held.get(symbol) ?? []), type]));
        return { body: new Uint8Array() };
      })
      .handle(QUOTE_COMMANDS.unsubscribe, (request, link) => {
        const body = messages.unsubscribeRequest.decode(request.body);
        const held = this.held(link);
        for (const symbol of body.symbol) {
          for (const type of body.subType) held.get(symbol)?.delete(type);
          if (held.get(symbol)?.size === 0) held.delete(symbol);
        }
        return { body: new Uint8Array() };
      })
      .handle(QUOTE_COMMANDS.staticInfo, (request) => ({
        body: messages.staticInfoResponse.encode({
          secuStaticInfo: messages.multiSecurityRequest
            .decode(request.body)
            .symbol.filter((symbol) => !(options.unknown ?? []).includes(symbol))
            .map((symbol) => ({
              symbol,
              nameCn: '',
              nameEn: `${symbol} Inc`,
              nameHk: '',
              listingDate: '20040616',
              exchange: 'SEHK',
              currency: 'HKD',
              lotSize: 100,
              totalShares: 9_500_000_000,
              circulatingShares: 9_400_000_000,
              hkShares: 0,
              eps: '19.7',
              epsTtm: '20.1',
              bps: '120.3',
              dividendYield: '0.6',
              stockDerivatives: [],
              board: 'HKEquity',
            })),
        }),
      }))
      .handle(QUOTE_COMMANDS.quote, (request) => ({
        body: messages.quoteResponse.encode({
          secuQuote: messages.multiSecurityRequest.decode(request.body).symbol.map((symbol) => ({
            symbol,
            lastDone: '388.2',
            prevClose: '380',
            open: '381',
            high: '390',
            low: '379.5',
            timestamp: 1_704_165_000,
            volume: 1_000_000,
            turnover: '388200000',
            tradeStatus: 0,
          })),
        }),
      }))
      .handle(QUOTE_COMMANDS.depth, (request) => ({
        body: messages.depthResponse.encode({
          symbol: messages.securityRequest.decode(request.body).symbol,
          ask: [{ position: 1, price: '388.4', volume: 500, orderNum: 3 }],
          bid: [{ position: 1, price: '388.2', volume: 700, orderNum: 4 }],
        }),
      }))
      .handle(QUOTE_COMMANDS.tradingDays, (request) => {
        const body = messages.tradeDayRequest.decode(request.body);
        return { body: messages.tradeDayResponse.encode({ tradeDay: [body.begDay, body.endDay], halfTradeDay: [body.endDay] }) };
      })
      .handle(QUOTE_COMMANDS.tradingSessions, () => ({
        body: messages.tradePeriodResponse.encode({
          marketTradeSession: [
            {
              market: 'HK',
              tradeSession: [
                { begTime: 930, endTime: 1200, tradeSession: 0 },
                { begTime: 1300, endTime: 1600, tradeSession: 0 },
              ],
            },
          ],
        }),
      }))
      .handle(QUOTE_COMMANDS.candlesticks, (request) => {
        const body = messages.candlestickRequest.decode(request.body);
        const bars = (options.candles?.[body.symbol] ?? []).slice(-body.count);
        return { body: messages.candlestickResponse.encode({ symbol: body.symbol, candlesticks: bars.map(messageFromCandle) }) };
      })
      .handle(QUOTE_COMMANDS.historyCandlesticks, (request) => {
        pages += 1;
        if (options.holdPagesAfter !== undefined && pages > options.holdPagesAfter) {
          markHeld();
          return new Promise(() => undefined);
        }
        const body = messages.historyCandlestickRequest.decode(request.body);
        const all = options.candles?.[body.symbol] ?? [];
        const zone = timeZoneOf(marketOf(parseSymbol(body.symbol)));
        const dated = all.map((candle) => ({ candle, date: compact(localDate(candle.time, zone)) }));
        let bars: Candle[];
        if (body.queryType === 2) {
          const range = body.dateRequest!;
          bars = dated
            .filter(({ date }) => date >= range.startDate && date <= range.endDate)
            .map(({ candle }) => candle)
            .slice(0, options.pageSize ?? 1000);
        } else {
          const offset = body.offsetRequest!;
          const anchor = offset.date === '' ? '99999999' : offset.date;
          bars =
            offset.direction === 1
              ? dated
                  .filter(({ date }) => date >= anchor)
                  .map(({ candle }) => candle)
                  .slice(0, offset.count)
              : dated
                  .filter(({ date }) => date <= anchor)
                  .map(({ candle }) => candle)
                  .slice(-offset.count);
        }
        return { body: messages.candlestickResponse.encode({ symbol: body.symbol, candlesticks: bars.map(messageFromCandle) }) };
      })
      .handle(QUOTE_COMMANDS.capitalFlow, (request) => ({
        body: messages.capitalFlowResponse.encode({
          symbol: messages.capitalFlowRequest.decode(request.body).symbol,
          capitalFlowLines: [
            { inflow: '1.5', timestamp: 1_704_159_000 },
            { inflow: '-20.25', timestamp: 1_704_159_060 },
          ],
        }),
      }))
      .handle(QUOTE_COMMANDS.capitalDistribution, (request) => ({
        body: messages.capitalDistributionResponse.encode({
          symbol: messages.securityRequest.decode(request.body).symbol,
          timestamp: 1_704_165_000,
          capitalIn: { large: '100.5', medium: '50', small: '10' },
          capitalOut: { large: '90', medium: '60.25', small: '5' },
        }),
      }));
  }

  /** Symbols subscribed (any kind) on the most recent open link. */
  subscribedSymbols(): string[] {
    const link = this.server.openLinks.at(-1);
    return link === undefined ? [] : [...(this.subscriptions.get(link)?.keys() ?? [])].sort();
  }

  /** Pushes a quote to every link subscribed to its symbol's quotes. */
  pushQuote(quote: Quote, options: EncodeOptions = {}): void {
    this.pushTo(quote.symbol, SUB_TYPES.quote, QUOTE_PUSHES.quote, messages.pushQuote.encode(pushFromQuote(quote)), options);
  }

  pushTo(symbol: string, subType: number, cmd: number, body: Uint8Array, options: EncodeOptions = {}): void {
    for (const link of this.server.openLinks) {
      if (this.subscriptions.get(link)?.get(symbol)?.has(subType)) {
        link.socket.send(encodePacket({ type: 'push', cmd, body }, options));
      }
    }
  }

  private held(link: ServerLink): Map<string, Set<number>> {
    let held = this.subscriptions.get(link);
    if (held === undefined) {
      held = new Map();
      this.subscriptions.set(link, held);
    }
    return held;
  }
}
