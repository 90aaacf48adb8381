// The quote connection's request/response calls as typed methods (PROTOCOL.md §5, §7.2): quotes and static
// info, option and warrant quotes, depth and broker snapshots, participants, recent trades, intraday lines,
// candlesticks and history, option chains, warrant issuers and the screener, trading sessions and days, capital
// flow and distribution, calc indexes. QuoteClient adds the connection, the pushes and the local state.
import type { Candle } from '../../domain/candle.js';
import type { Period } from '../../domain/period.js';
import type { Depth, MarketTrade } from '../../domain/quote.js';
import type { Market, SecuritySymbol } from '../../domain/symbol.js';
import { ADJUST_TYPES, HISTORY_QUERY_TYPES, QUOTE_COMMANDS, TRADE_SESSION_FILTER, type AdjustType } from './commands.js';
import {
  issuerFromMessage,
  optionQuoteFromMessage,
  strikeFromMessage,
  warrantInfoFromMessage,
  warrantQuoteFromMessage,
  type OptionQuote,
  type StrikePrice,
  type WarrantIssuer,
  type WarrantList,
  type WarrantQuote,
} from './derivative-mapping.js';
import { historyPages, type HistoryRange } from './history-pages.js';
import { messages, type CandlestickMessage, type MessageCodec, type SecurityHistoryCandlestickRequest } from './messages.js';
import { periodCode } from './periods.js';
import {
  brokersFromMessage,
  calcIndexFromMessage,
  intradayLineFromMessage,
  participantFromMessage,
  type IntradayLine,
  type Participant,
  type SecurityBrokers,
  type SecurityCalcIndex,
} from './quote-extras-mapping.js';
import {
  candleFromMessage,
  depthFromPush,
  marketTradeFromMessage,
  snapshotFromMessage,
  staticInfoFromMessage,
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
import {
  calcIndexCode,
  warrantWire,
  WARRANT_LANGUAGES,
  WARRANT_SORT_KEYS,
  type CalcIndex,
  type WarrantBounds,
  type WarrantExpiryBand,
  type WarrantSortKey,
  type WarrantStatus,
  type WarrantType,
} from './reference-enums.js';

export interface CandleQuery {
  readonly adjust?: AdjustType;
  /** Include pre/post/overnight bars (trade_session 100) instead of the regular session only. */
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

export interface WarrantQuery {
  readonly sortBy: WarrantSortKey;
  readonly order: 'asc' | 'desc';
  readonly types?: readonly WarrantType[];
  readonly issuers?: readonly number[];
  readonly expiry?: readonly WarrantExpiryBand[];
  readonly bounds?: readonly WarrantBounds[];
  readonly statuses?: readonly WarrantStatus[];
  /** Language of the names (default en). */
  readonly language?: keyof typeof WARRANT_LANGUAGES;
  /** Paging: rows from `offset`, at most `count` of them (all when count is 0 or absent). */
  readonly offset?: number;
  readonly count?: number;
}

export abstract class QuoteRequests {
  /** Sends one request and decodes its answer, within the connection's call limits. */
  protected abstract call<Req, Res>(
    cmd: number,
    requestCodec: MessageCodec<Req>,
    value: Req,
    responseCodec: MessageCodec<Res>,
  ): Promise<Res>;

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

  /** Quotes of option contracts (e.g. AAPL240119C190000.US), with their terms and implied volatility. */
  async optionQuote(symbols: readonly string[]): Promise<OptionQuote[]> {
    const response = await this.call(
      QUOTE_COMMANDS.optionQuote,
      messages.multiSecurityRequest,
      { symbol: symbols },
      messages.optionQuoteResponse,
    );
    return response.secuQuote.map(optionQuoteFromMessage);
  }

  /** Quotes of HK warrants and CBBCs, with their terms. */
  async warrantQuote(symbols: readonly string[]): Promise<WarrantQuote[]> {
    const response = await this.call(
      QUOTE_COMMANDS.warrantQuote,
      messages.multiSecurityRequest,
      { symbol: symbols },
      messages.warrantQuoteResponse,
    );
    return response.secuQuote.map(warrantQuoteFromMessage);
  }

  async depthSnapshot(symbol: SecuritySymbol): Promise<Depth> {
    const response = await this.call(QUOTE_COMMANDS.depth, messages.securityRequest, { symbol }, messages.depthResponse);
    return depthFromPush({ symbol: response.symbol || symbol, sequence: 0, ask: response.ask, bid: response.bid });
  }

  /** The broker queue at each depth level (HK securities). */
  async brokersSnapshot(symbol: SecuritySymbol): Promise<SecurityBrokers> {
    const response = await this.call(QUOTE_COMMANDS.brokers, messages.securityRequest, { symbol }, messages.brokersResponse);
    return brokersFromMessage({ ...response, symbol: response.symbol || symbol });
  }

  /** Exchange participants and their broker ids (the names behind broker queues). */
  async participants(): Promise<Participant[]> {
    const response = await this.call(QUOTE_COMMANDS.participants, messages.participantsRequest, {}, messages.participantsResponse);
    return response.participantBrokerNumbers.map(participantFromMessage);
  }

  /** The latest `count` trades (the service allows at most 1000). */
  async recentTrades(symbol: SecuritySymbol, count: number): Promise<MarketTrade[]> {
    const response = await this.call(QUOTE_COMMANDS.trades, messages.tradeRequest, { symbol, count }, messages.tradeResponse);
    return response.trades.map(marketTradeFromMessage);
  }

  /** Today's minute lines: close, volume, turnover and average price of each minute so far. */
  async intraday(symbol: SecuritySymbol, query: { readonly allSessions?: boolean } = {}): Promise<IntradayLine[]> {
    const tradeSession = query.allSessions ? TRADE_SESSION_FILTER.all : TRADE_SESSION_FILTER.regular;
    const response = await this.call(
      QUOTE_COMMANDS.intraday,
      messages.intradayRequest,
      { symbol, tradeSession },
      messages.intradayResponse,
    );
    return response.lines.map(intradayLineFromMessage);
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
    return (await this.latestCandleMessages(symbol, period, count, query)).map((candle) => candleFromMessage(candle, symbol, period));
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

  /** Expiry dates (YYYY-MM-DD) of the options on a security. */
  async optionChainDates(symbol: SecuritySymbol): Promise<string[]> {
    const response = await this.call(QUOTE_COMMANDS.optionChainDates, messages.securityRequest, { symbol }, messages.optionDatesResponse);
    return response.expiryDate.map((date) => `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`);
  }

  /** Strikes of one expiry (YYYY-MM-DD), each with its call and put symbols. */
  async optionChainStrikes(symbol: SecuritySymbol, expiry: string): Promise<StrikePrice[]> {
    const request = { symbol, expiryDate: compactDate(expiry) };
    const response = await this.call(
      QUOTE_COMMANDS.optionChainStrikes,
      messages.optionStrikesRequest,
      request,
      messages.optionStrikesResponse,
    );
    return response.strikePriceInfo.map(strikeFromMessage);
  }

  async warrantIssuers(): Promise<WarrantIssuer[]> {
    const response = await this.call(QUOTE_COMMANDS.warrantIssuers, messages.issuersRequest, {}, messages.issuersResponse);
    return response.issuerInfo.map(issuerFromMessage);
  }

  /** The warrants on a security, filtered and sorted by the service. */
  async warrantList(symbol: SecuritySymbol, query: WarrantQuery): Promise<WarrantList> {
    const request = {
      symbol,
      language: WARRANT_LANGUAGES[query.language ?? 'en'],
      filterConfig: {
        sortBy: WARRANT_SORT_KEYS.indexOf(query.sortBy),
        sortOrder: query.order === 'desc' ? 1 : 0,
        sortOffset: query.offset ?? 0,
        sortCount: query.count ?? 0,
        type: (query.types ?? []).map(warrantWire.type),
        issuer: query.issuers ?? [],
        expiryDate: (query.expiry ?? []).map(warrantWire.expiry),
        priceType: (query.bounds ?? []).map(warrantWire.bounds),
        status: (query.statuses ?? []).map(warrantWire.status),
      },
    };
    const response = await this.call(QUOTE_COMMANDS.warrantList, messages.warrantListRequest, request, messages.warrantListResponse);
    return { totalCount: response.totalCount, warrants: response.warrantList.map(warrantInfoFromMessage) };
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

  /** The asked indexes of each security (of stocks, options or warrants); one a security lacks is absent. */
  async calcIndexes(symbols: readonly string[], indexes: readonly CalcIndex[]): Promise<SecurityCalcIndex[]> {
    const request = { symbols, calcIndex: indexes.map(calcIndexCode) };
    const response = await this.call(QUOTE_COMMANDS.calcIndexes, messages.calcIndexRequest, request, messages.calcIndexResponse);
    return response.securityCalcIndex.map((row) => calcIndexFromMessage(row, indexes));
  }

  protected async latestCandleMessages(
    symbol: SecuritySymbol,
    period: Period,
    count: number,
    query: CandleQuery,
  ): Promise<readonly CandlestickMessage[]> {
    const request = {
      symbol,
      period: periodCode(period),
      count,
      adjustType: ADJUST_TYPES[query.adjust ?? 'none'],
      tradeSession: query.allSessions ? TRADE_SESSION_FILTER.all : TRADE_SESSION_FILTER.regular,
    };
    return (await this.call(QUOTE_COMMANDS.candlesticks, messages.candlestickRequest, request, messages.candlestickResponse)).candlesticks;
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
}
