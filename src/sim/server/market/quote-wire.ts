// The market state as quote-connection messages: pushes (101 quote, 102 depth, 104 trades), the quote and
// depth snapshots (cmds 11, 14), recent trades (17), intraday lines (18) and static info (10).
import { Price } from '../../../domain/price.js';
import { marketOf, currencyOf, type SecuritySymbol } from '../../../domain/symbol.js';
import type { PushDepth, PushQuote, PushTrade, SecurityQuote, StaticInfo, TradeMessage } from '../../../openapi/socket/messages.js';
import { synthesiseDepth, type BookSides } from './depth.js';
import type { IntradayLineMessage } from '../../../openapi/socket/messages.js';
import { TOTAL_SHARES, type Fundamentals } from './fundamentals.js';
import type { PrintedTrade, SymbolQuote } from './quote-board.js';
import { isoDate } from './aggregate.js';

/** A replayed float price as the exact decimal text it was read from. */
function priceText(value: number): string {
  return Price.of(value).toString();
}

/** A derived float amount (turnover, averages) to the cent. */
function amountText(value: number, places = 2): string {
  return value.toFixed(places);
}

const seconds = (epochMs: number): number => Math.floor(epochMs / 1000);

export function pushQuoteOf(quote: SymbolQuote): PushQuote {
  const tick = quote.tick;
  return {
    symbol: quote.symbol,
    sequence: quote.sequence,
    lastDone: priceText(tick.price),
    open: priceText(tick.dayOpen),
    high: priceText(tick.dayHigh),
    low: priceText(tick.dayLow),
    timestamp: seconds(tick.time),
    volume: tick.dayVolume,
    turnover: amountText(tick.dayTurnover),
    tradeStatus: 0,
    tradeSession: 0,
    currentVolume: tick.volume,
    currentTurnover: amountText(tick.price * tick.volume),
    tag: 0,
  };
}

export function depthOf(quote: SymbolQuote, seed: number): BookSides {
  return synthesiseDepth(marketOf(quote.symbol), quote.symbol, quote.tick.price, quote.sequence, seed);
}

export function pushDepthOf(quote: SymbolQuote, seed: number): PushDepth {
  return { symbol: quote.symbol, sequence: quote.sequence, ...depthOf(quote, seed) };
}

export function tradeMessageOf(trade: PrintedTrade): TradeMessage {
  return {
    price: priceText(trade.price),
    volume: trade.volume,
    timestamp: seconds(trade.time),
    tradeType: '',
    direction: trade.direction,
    tradeSession: 0,
  };
}

export function pushTradeOf(quote: SymbolQuote): PushTrade {
  return { symbol: quote.symbol, sequence: quote.sequence, trade: [tradeMessageOf(quote.trades.at(-1)!)] };
}

export function securityQuoteOf(quote: SymbolQuote): SecurityQuote {
  const tick = quote.tick;
  return {
    symbol: quote.symbol,
    lastDone: priceText(tick.price),
    prevClose: priceText(quote.prevClose),
    open: priceText(tick.dayOpen),
    high: priceText(tick.dayHigh),
    low: priceText(tick.dayLow),
    timestamp: seconds(tick.time),
    volume: tick.dayVolume,
    turnover: amountText(tick.dayTurnover),
    tradeStatus: 0,
  };
}

export function intradayLinesOf(quote: SymbolQuote): IntradayLineMessage[] {
  return quote.lines.map((line) => ({
    price: priceText(line.price),
    timestamp: seconds(line.time),
    volume: line.volume,
    turnover: amountText(line.turnover),
    avgPrice: amountText(line.dayVolume > 0 ? line.dayTurnover / line.dayVolume : line.price, 4),
  }));
}

const EXCHANGES = { HK: 'SEHK', US: 'NASD', CN: 'SSE', SG: 'SGX' } as const;
const BOARDS = { HK: 'HKEquity', US: 'USMain', CN: 'SHMainConnect', SG: 'SGMain' } as const;

/** Reference data: the display name, the listing date from the first bar, generated fundamentals, the rest typical of the market. */
export function staticInfoOf(symbol: SecuritySymbol, display: string, firstBarDayKey: number, fundamentals: Fundamentals): StaticInfo {
  const market = marketOf(symbol);
  return {
    symbol,
    nameCn: display,
    nameEn: display,
    nameHk: display,
    listingDate: isoDate(firstBarDayKey).replaceAll('-', ''),
    exchange: EXCHANGES[market],
    currency: currencyOf(market),
    lotSize: market === 'HK' ? 100 : 1,
    totalShares: TOTAL_SHARES,
    circulatingShares: TOTAL_SHARES,
    hkShares: market === 'HK' ? TOTAL_SHARES : 0,
    eps: fundamentals.epsTtm.toFixed(2),
    epsTtm: fundamentals.epsTtm.toFixed(2),
    bps: fundamentals.bps.toFixed(2),
    dividendYield: fundamentals.dividendPerShare.toFixed(2),
    // Every security has generated options; HK ones also generated warrants (wire: 1 option, 2 warrant).
    stockDerivatives: market === 'HK' ? [1, 2] : [1],
    board: BOARDS[market],
  };
}
