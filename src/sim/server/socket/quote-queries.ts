// The quote connection's questions: profile (4), trading sessions (8) and days (9), static info (10), quote
// (11), depth (14), trades (17), intraday (18), candlesticks (19), capital flow (24) and distribution (25),
// history candlesticks (27). Everything is answered from the replay's state at the current market time; the
// profile's quote packages and the fundamentals in static info are generated.
import { REGULAR_SESSIONS } from '../../../domain/market-hours.js';
import { isMarket, MARKETS, marketOf, parseSymbol, type SecuritySymbol } from '../../../domain/symbol.js';
import type { Clock } from '../../../domain/clock.js';
import { RESPONSE_STATUS } from '../../../openapi/socket/codec.js';
import { HISTORY_QUERY_TYPES, QUOTE_COMMANDS } from '../../../openapi/socket/commands.js';
import { messages, type PackageDetail, type UserQuoteLevelDetail } from '../../../openapi/socket/messages.js';
import { periodFromCode } from '../../../openapi/socket/periods.js';
import { messageFromCandle } from '../../../openapi/socket/quote-mapping.js';
import { capitalDistribution, capitalFlow } from '../market/capital.js';
import { MAX_CANDLES_PER_ANSWER, type CandleStore, type HistoryQuery } from '../market/candle-store.js';
import { fundamentalsOf } from '../market/fundamentals.js';
import type { QuoteBoard } from '../market/quote-board.js';
import { depthOf, intradayLinesOf, securityQuoteOf, staticInfoOf, tradeMessageOf } from '../market/quote-wire.js';
import type { TradingCalendar } from '../market/trading-calendar.js';
import { QUOTE_CODES, SocketFailure, type CommandHandler } from './link.js';
import { MAX_SUBSCRIBED_SYMBOLS } from './quote-subscriptions.js';

export interface QuoteSources {
  readonly board: QuoteBoard;
  readonly candles: CandleStore;
  readonly calendar: TradingCalendar;
  readonly marketClock: Clock;
  readonly seed: number;
  readonly nameOf: (symbol: SecuritySymbol) => string;
  /** The lot size the venue enforces, so static info (cmd 10) and the order rules agree. */
  readonly lotSizeOf: (symbol: SecuritySymbol) => number;
}

/** Per-command limits announced in the profile: history candlesticks 60 per 30 s (`limit` per second, `burst` at once). */
const PROFILE_RATE_LIMITS = [{ command: QUOTE_COMMANDS.historyCandlesticks, limit: 2, burst: 60 }] as const;

const compact = (dayKey: number): string => String(dayKey);
const dayKeyOf = (text: string, field: string): number => {
  if (!/^\d{8}$/.test(text))
    throw new SocketFailure(RESPONSE_STATUS.badRequest, QUOTE_CODES.invalidRequest, `${field} "${text}" is not a YYYYMMDD date`);
  return Number(text);
};

export function quoteQueries(sources: QuoteSources): [number, CommandHandler][] {
  const { board, candles, calendar } = sources;
  const known = (symbols: readonly string[]): SecuritySymbol[] =>
    symbols.map((text) => parseSymbol(text)).filter((symbol) => candles.has(symbol));
  return [
    [
      QUOTE_COMMANDS.profile,
      () =>
        messages.quoteProfileResponse.encode({
          memberId: 1,
          quoteLevel: 'LV1',
          subscribeLimit: MAX_SUBSCRIBED_SYMBOLS,
          historyCandlestickLimit: MAX_CANDLES_PER_ANSWER,
          rateLimit: [...PROFILE_RATE_LIMITS],
          quoteLevelDetail: quotePackages(candles.symbols, sources.marketClock.now()),
        }),
    ],
    [
      QUOTE_COMMANDS.tradingSessions,
      () =>
        messages.tradePeriodResponse.encode({
          marketTradeSession: MARKETS.map((market) => ({
            market,
            tradeSession: REGULAR_SESSIONS[market].map((session) => ({ begTime: session.begin, endTime: session.end, tradeSession: 0 })),
          })),
        }),
    ],
    [
      QUOTE_COMMANDS.tradingDays,
      (body) => {
        const request = messages.tradeDayRequest.decode(body);
        if (!isMarket(request.market))
          throw new SocketFailure(RESPONSE_STATUS.badRequest, QUOTE_CODES.invalidRequest, `unknown market "${request.market}"`);
        const days = calendar.tradingDays(request.market, dayKeyOf(request.begDay, 'beg_day'), dayKeyOf(request.endDay, 'end_day'));
        return messages.tradeDayResponse.encode({ tradeDay: days.map(compact), halfTradeDay: [] });
      },
    ],
    [
      QUOTE_COMMANDS.staticInfo,
      (body) => {
        const symbols = known(messages.multiSecurityRequest.decode(body).symbol);
        return messages.staticInfoResponse.encode({
          secuStaticInfo: symbols.map((symbol) => {
            const first = candles.series(symbol)!.candles[0]!;
            const fundamentals = fundamentalsOf(symbol, first.close, sources.seed);
            return staticInfoOf(
              symbol,
              sources.nameOf(symbol),
              board.marketDays(symbol).dayKey(first.time),
              fundamentals,
              sources.lotSizeOf(symbol),
            );
          }),
        });
      },
    ],
    [
      QUOTE_COMMANDS.quote,
      (body) => {
        const quotes = known(messages.multiSecurityRequest.decode(body).symbol).flatMap((symbol) => board.get(symbol) ?? []);
        return messages.quoteResponse.encode({ secuQuote: quotes.map(securityQuoteOf) });
      },
    ],
    [
      QUOTE_COMMANDS.depth,
      (body) => {
        const symbol = parseSymbol(messages.securityRequest.decode(body).symbol);
        const quote = board.get(symbol);
        return messages.depthResponse.encode({ symbol, ...(quote === undefined ? { ask: [], bid: [] } : depthOf(quote, sources.seed)) });
      },
    ],
    [
      QUOTE_COMMANDS.trades,
      (body) => {
        const request = messages.tradeRequest.decode(body);
        const trades = board.get(parseSymbol(request.symbol))?.trades ?? [];
        const count = Math.max(0, Math.min(request.count, 1000));
        return messages.tradeResponse.encode({
          symbol: request.symbol,
          trades: trades.slice(trades.length - count).map(tradeMessageOf),
        });
      },
    ],
    [
      QUOTE_COMMANDS.intraday,
      (body) => {
        const symbol = parseSymbol(messages.intradayRequest.decode(body).symbol);
        const quote = board.get(symbol);
        return messages.intradayResponse.encode({ symbol, lines: quote === undefined ? [] : intradayLinesOf(quote) });
      },
    ],
    [
      QUOTE_COMMANDS.candlesticks,
      (body) => {
        const request = messages.candlestickRequest.decode(body);
        const symbol = parseSymbol(request.symbol);
        const bars = candles.latest(symbol, periodFromCode(request.period), request.count) ?? underivable(symbol, request.period, candles);
        return messages.candlestickResponse.encode({ symbol, candlesticks: bars.map(messageFromCandle) });
      },
    ],
    [
      QUOTE_COMMANDS.historyCandlesticks,
      (body) => {
        const request = messages.historyCandlestickRequest.decode(body);
        const symbol = parseSymbol(request.symbol);
        const bars =
          candles.history(symbol, periodFromCode(request.period), historyQuery(request)) ?? underivable(symbol, request.period, candles);
        return messages.candlestickResponse.encode({ symbol, candlesticks: bars.map(messageFromCandle) });
      },
    ],
    [
      QUOTE_COMMANDS.capitalFlow,
      (body) => {
        const symbol = parseSymbol(messages.capitalFlowRequest.decode(body).symbol);
        return messages.capitalFlowResponse.encode(
          capitalFlow(symbol, board.get(symbol), board.marketDays(symbol), sources.marketClock.now(), sources.seed),
        );
      },
    ],
    [
      QUOTE_COMMANDS.capitalDistribution,
      (body) => {
        const symbol = parseSymbol(messages.securityRequest.decode(body).symbol);
        return messages.capitalDistributionResponse.encode(capitalDistribution(symbol, board.get(symbol), sources.seed));
      },
    ],
  ];
}

/** One simulated LV1 package per market of the data, valid from 30 days before to a year after the market time. */
function quotePackages(symbols: readonly SecuritySymbol[], now: number): UserQuoteLevelDetail {
  const start = Math.floor(now / 1000) - 30 * 86_400;
  const markets = [...new Set(symbols.map(marketOf))];
  const packageOf = (market: string): PackageDetail => ({
    key: `SIM_${market}_LV1`,
    name: `Simulated ${market} quotes (LV1)`,
    description: `Level 1 quotes of the simulated ${market} market`,
    start,
    end: start + 395 * 86_400,
  });
  return {
    byPackageKey: Object.fromEntries(markets.map((market) => [`SIM_${market}_LV1`, packageOf(market)])),
    byMarketCode: Object.fromEntries(markets.map((market) => [market, { packages: [packageOf(market)], warningMsg: '' }])),
  };
}

function historyQuery(request: ReturnType<typeof messages.historyCandlestickRequest.decode>): HistoryQuery {
  if (request.queryType === HISTORY_QUERY_TYPES.date) {
    const range = request.dateRequest;
    if (range === null || range === undefined)
      throw new SocketFailure(RESPONSE_STATUS.badRequest, QUOTE_CODES.invalidRequest, 'a date query needs date_request');
    return { kind: 'date', start: dayKeyOf(range.startDate, 'start_date'), end: dayKeyOf(range.endDate, 'end_date') };
  }
  const offset = request.offsetRequest;
  if (request.queryType !== HISTORY_QUERY_TYPES.offset || offset === null || offset === undefined) {
    throw new SocketFailure(
      RESPONSE_STATUS.badRequest,
      QUOTE_CODES.invalidRequest,
      'query_type must be 1 (offset, with offset_request) or 2 (date, with date_request)',
    );
  }
  const minute = offset.minute === '' ? undefined : Number(offset.minute);
  if (minute !== undefined && !(Number.isInteger(minute) && minute >= 0 && minute < 2400 && minute % 100 < 60)) {
    throw new SocketFailure(RESPONSE_STATUS.badRequest, QUOTE_CODES.invalidRequest, `minute "${offset.minute}" is not HHMM`);
  }
  return {
    kind: 'offset',
    direction: offset.direction === 1 ? 'forward' : 'backward',
    date: offset.date === '' ? undefined : dayKeyOf(offset.date, 'date'),
    minute,
    count: offset.count,
  };
}

function underivable(symbol: SecuritySymbol, periodCode: number, candles: CandleStore): never {
  const period = candles.series(symbol)?.period;
  throw new SocketFailure(
    RESPONSE_STATUS.badRequest,
    QUOTE_CODES.noQuotes,
    `${periodFromCode(periodCode)} candlesticks of ${symbol} cannot be built from its ${period} bars`,
  );
}
