// Wire messages of the quote connection → domain values: decimal-exact prices, epoch-ms times (the service
// sends seconds), validated symbols. Server-side encoders use the inverse helpers at the bottom.
import type { Candle } from '../../domain/candle.js';
import { Decimal, parseDecimal, toWire } from '../../domain/decimal.js';
import { Money } from '../../domain/money.js';
import { Price } from '../../domain/price.js';
import type { Period } from '../../domain/period.js';
import type { Depth, DepthLevel, MarketTrade, Quote, Trades } from '../../domain/quote.js';
import { currencyOf, marketOf, parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
import type {
  CandlestickMessage,
  DepthLevelMessage,
  PrePostQuote,
  PushDepth,
  PushQuote,
  PushTrade,
  SecurityQuote,
  StaticInfo,
  TradeMessage,
} from './messages.js';
import { tradeSessionCode, tradeSessionFromCode } from './periods.js';

const ZERO = new Decimal(0);

/** A figure the service may leave empty before the first trade of a day ("" → 0), for the quote commands. */
function price(text: string, field: string): Decimal {
  return text.trim() === '' ? ZERO : parseDecimal(text, field);
}

/** A domain price the service may leave empty ("" → 0). */
function domainPrice(text: string, field: string): Price {
  return text.trim() === '' ? Price.ZERO : Price.of(text, field);
}

export function quoteFromPush(push: PushQuote): Quote {
  const symbol = parseSymbol(push.symbol);
  const currency = currencyOf(marketOf(symbol));
  const money = (text: string, field: string): Money => (text.trim() === '' ? Money.zero(currency) : Money.of(text, currency, field));
  return {
    symbol,
    sequence: push.sequence,
    lastDone: Price.of(push.lastDone, 'last_done'),
    open: domainPrice(push.open, 'open'),
    high: domainPrice(push.high, 'high'),
    low: domainPrice(push.low, 'low'),
    timestamp: push.timestamp * 1000,
    volume: push.volume,
    turnover: money(push.turnover, 'turnover'),
    tradeStatus: push.tradeStatus,
    tradeSession: tradeSessionFromCode(push.tradeSession),
    currentVolume: push.currentVolume,
    currentTurnover: money(push.currentTurnover, 'current_turnover'),
  };
}

export function pushFromQuote(quote: Quote): PushQuote {
  return {
    symbol: quote.symbol,
    sequence: quote.sequence,
    lastDone: toWire(quote.lastDone),
    open: toWire(quote.open),
    high: toWire(quote.high),
    low: toWire(quote.low),
    timestamp: Math.floor(quote.timestamp / 1000),
    volume: quote.volume,
    turnover: toWire(quote.turnover),
    tradeStatus: quote.tradeStatus,
    tradeSession: tradeSessionCode(quote.tradeSession),
    currentVolume: quote.currentVolume,
    currentTurnover: toWire(quote.currentTurnover),
    tag: 0,
  };
}

function depthLevel(level: DepthLevelMessage): DepthLevel {
  return { position: level.position, price: domainPrice(level.price, 'price'), volume: level.volume, orderCount: level.orderNum };
}

export function depthFromPush(push: PushDepth): Depth {
  return { symbol: parseSymbol(push.symbol), sequence: push.sequence, asks: push.ask.map(depthLevel), bids: push.bid.map(depthLevel) };
}

export function marketTradeFromMessage(trade: TradeMessage): MarketTrade {
  return {
    price: Price.of(trade.price, 'price'),
    volume: trade.volume,
    timestamp: trade.timestamp * 1000,
    tradeType: trade.tradeType,
    direction: trade.direction,
    tradeSession: tradeSessionFromCode(trade.tradeSession),
  };
}

export function tradesFromPush(push: PushTrade): Trades {
  return { symbol: parseSymbol(push.symbol), sequence: push.sequence, trades: push.trade.map(marketTradeFromMessage) };
}

/** Candlestick timestamps are the bar start in epoch seconds. */
export function candleFromMessage(message: CandlestickMessage, symbol: SecuritySymbol, period: Period): Candle {
  const turnover = message.turnover.trim() === '' ? undefined : Number(message.turnover);
  return {
    symbol,
    period,
    time: message.timestamp * 1000,
    open: parseDecimal(message.open, 'open').toNumber(),
    high: parseDecimal(message.high, 'high').toNumber(),
    low: parseDecimal(message.low, 'low').toNumber(),
    close: parseDecimal(message.close, 'close').toNumber(),
    volume: message.volume,
    ...(turnover === undefined ? {} : { turnover }),
  };
}

export function messageFromCandle(candle: Candle): CandlestickMessage {
  return {
    open: String(candle.open),
    high: String(candle.high),
    low: String(candle.low),
    close: String(candle.close),
    volume: candle.volume,
    turnover: candle.turnover === undefined ? '' : String(candle.turnover),
    timestamp: Math.floor(candle.time / 1000),
    tradeSession: 0,
  };
}

/** A quote snapshot (cmd 11): the last trade plus the day's reference prices and extended sessions. */
export interface QuoteSnapshot {
  readonly symbol: SecuritySymbol;
  readonly lastDone: Decimal;
  readonly prevClose: Decimal;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  /** Epoch ms. */
  readonly timestamp: number;
  readonly volume: number;
  readonly turnover: Decimal;
  readonly tradeStatus: number;
  readonly preMarket: ExtendedQuote | undefined;
  readonly postMarket: ExtendedQuote | undefined;
  readonly overnight: ExtendedQuote | undefined;
}

export interface ExtendedQuote {
  readonly lastDone: Decimal;
  readonly timestamp: number;
  readonly volume: number;
  readonly turnover: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly prevClose: Decimal;
}

function extended(quote: PrePostQuote | null | undefined): ExtendedQuote | undefined {
  if (quote === null || quote === undefined || quote.lastDone === '') return undefined;
  return {
    lastDone: parseDecimal(quote.lastDone, 'last_done'),
    timestamp: quote.timestamp * 1000,
    volume: quote.volume,
    turnover: price(quote.turnover, 'turnover'),
    high: price(quote.high, 'high'),
    low: price(quote.low, 'low'),
    prevClose: price(quote.prevClose, 'prev_close'),
  };
}

export function snapshotFromMessage(message: SecurityQuote): QuoteSnapshot {
  return {
    symbol: parseSymbol(message.symbol),
    lastDone: price(message.lastDone, 'last_done'),
    prevClose: price(message.prevClose, 'prev_close'),
    open: price(message.open, 'open'),
    high: price(message.high, 'high'),
    low: price(message.low, 'low'),
    timestamp: message.timestamp * 1000,
    volume: message.volume,
    turnover: price(message.turnover, 'turnover'),
    tradeStatus: message.tradeStatus,
    preMarket: extended(message.preMarketQuote),
    postMarket: extended(message.postMarketQuote),
    overnight: extended(message.overNightQuote),
  };
}

/** Static reference data of a security (cmd 10). Share counts are plain integers, ratios decimals. */
export interface SecurityStaticInfo {
  readonly symbol: SecuritySymbol;
  readonly nameCn: string;
  readonly nameEn: string;
  readonly nameHk: string;
  readonly listingDate: string;
  readonly exchange: string;
  readonly currency: string;
  readonly lotSize: number;
  readonly totalShares: number;
  readonly circulatingShares: number;
  readonly hkShares: number;
  readonly eps: Decimal;
  readonly epsTtm: Decimal;
  readonly bps: Decimal;
  readonly dividendYield: Decimal;
  readonly stockDerivatives: readonly number[];
  readonly board: string;
}

export function staticInfoFromMessage(info: StaticInfo): SecurityStaticInfo {
  return {
    symbol: parseSymbol(info.symbol),
    nameCn: info.nameCn,
    nameEn: info.nameEn,
    nameHk: info.nameHk,
    listingDate: info.listingDate,
    exchange: info.exchange,
    currency: info.currency,
    lotSize: info.lotSize,
    totalShares: info.totalShares,
    circulatingShares: info.circulatingShares,
    hkShares: info.hkShares,
    eps: price(info.eps, 'eps'),
    epsTtm: price(info.epsTtm, 'eps_ttm'),
    bps: price(info.bps, 'bps'),
    dividendYield: price(info.dividendYield, 'dividend_yield'),
    stockDerivatives: info.stockDerivatives,
    board: info.board,
  };
}
