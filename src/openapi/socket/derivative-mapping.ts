// Options and warrants of the quote connection as domain values (cmds 12, 13, 20–23): decimal-exact prices,
// YYYY-MM-DD dates, epoch-ms times. Warrant screener rows keep every raw field (the official SDK 3.0.18 returns
// last_done in place of several of them); a field the service leaves empty is undefined.
import { Decimal, parseDecimal } from '../../domain/decimal.js';
import type {
  IssuerMessage,
  FilterWarrantMessage,
  OptionQuoteMessage,
  QuoteFields,
  StrikePriceMessage,
  WarrantQuoteMessage,
} from './messages.js';
import { WARRANT_STATUSES, WARRANT_TYPES, type WarrantStatus, type WarrantType } from './reference-enums.js';
import { isoDate } from './reference-data.js';

export interface DerivativeQuote {
  readonly symbol: string;
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
}

export interface OptionQuote extends DerivativeQuote {
  readonly impliedVolatility: Decimal;
  readonly openInterest: number;
  /** YYYY-MM-DD. */
  readonly expiryDate: string;
  readonly strikePrice: Decimal;
  readonly contractMultiplier: Decimal;
  readonly contractType: 'American' | 'European' | 'Unknown';
  readonly contractSize: Decimal;
  readonly direction: 'Call' | 'Put' | 'Unknown';
  readonly historicalVolatility: Decimal;
  readonly underlyingSymbol: string;
}

export interface WarrantQuote extends DerivativeQuote {
  readonly impliedVolatility: Decimal;
  readonly expiryDate: string;
  readonly lastTradeDate: string;
  readonly outstandingRatio: Decimal;
  readonly outstandingQuantity: number;
  readonly conversionRatio: Decimal;
  readonly category: WarrantType | 'Unknown';
  readonly strikePrice: Decimal;
  readonly upperStrikePrice: Decimal;
  readonly lowerStrikePrice: Decimal;
  readonly callPrice: Decimal;
  readonly underlyingSymbol: string;
}

export interface StrikePrice {
  readonly price: Decimal;
  readonly callSymbol: string;
  readonly putSymbol: string;
  readonly standard: boolean;
}

export interface WarrantIssuer {
  readonly issuerId: number;
  readonly nameCn: string;
  readonly nameEn: string;
  readonly nameHk: string;
}

export interface WarrantInfo {
  readonly symbol: string;
  readonly warrantType: WarrantType | 'Unknown';
  readonly name: string;
  readonly lastDone: Decimal;
  /** Percent. */
  readonly changeRate: Decimal;
  readonly changeValue: Decimal;
  readonly volume: number;
  readonly turnover: Decimal;
  readonly expiryDate: string;
  readonly strikePrice: Decimal | undefined;
  readonly upperStrikePrice: Decimal | undefined;
  readonly lowerStrikePrice: Decimal | undefined;
  readonly outstandingQuantity: number;
  readonly outstandingRatio: Decimal | undefined;
  readonly premium: Decimal | undefined;
  readonly itmOtm: Decimal | undefined;
  readonly impliedVolatility: Decimal | undefined;
  readonly delta: Decimal | undefined;
  readonly callPrice: Decimal | undefined;
  readonly toCallPrice: Decimal | undefined;
  readonly effectiveLeverage: Decimal | undefined;
  readonly leverageRatio: Decimal | undefined;
  readonly conversionRatio: Decimal | undefined;
  readonly balancePoint: Decimal | undefined;
  readonly status: WarrantStatus | 'Unknown';
}

export interface WarrantList {
  /** Matches before paging. */
  readonly totalCount: number;
  readonly warrants: readonly WarrantInfo[];
}

const ZERO = new Decimal(0);
const required = (text: string, field: string): Decimal => (text.trim() === '' ? ZERO : parseDecimal(text, field));
const optional = (text: string, field: string): Decimal | undefined => (text.trim() === '' ? undefined : parseDecimal(text, field));

function quoteFields(message: QuoteFields): DerivativeQuote {
  return {
    symbol: message.symbol,
    lastDone: required(message.lastDone, 'last_done'),
    prevClose: required(message.prevClose, 'prev_close'),
    open: required(message.open, 'open'),
    high: required(message.high, 'high'),
    low: required(message.low, 'low'),
    timestamp: message.timestamp * 1000,
    volume: message.volume,
    turnover: required(message.turnover, 'turnover'),
    tradeStatus: message.tradeStatus,
  };
}

export function optionQuoteFromMessage(message: OptionQuoteMessage): OptionQuote {
  const extend = message.optionExtend;
  return {
    ...quoteFields(message),
    impliedVolatility: required(extend?.impliedVolatility ?? '', 'implied_volatility'),
    openInterest: extend?.openInterest ?? 0,
    expiryDate: isoDate(extend?.expiryDate ?? ''),
    strikePrice: required(extend?.strikePrice ?? '', 'strike_price'),
    contractMultiplier: required(extend?.contractMultiplier ?? '', 'contract_multiplier'),
    contractType: extend?.contractType === 'A' ? 'American' : extend?.contractType === 'U' ? 'European' : 'Unknown',
    contractSize: required(extend?.contractSize ?? '', 'contract_size'),
    direction: extend?.direction === 'C' ? 'Call' : extend?.direction === 'P' ? 'Put' : 'Unknown',
    historicalVolatility: required(extend?.historicalVolatility ?? '', 'historical_volatility'),
    underlyingSymbol: extend?.underlyingSymbol ?? '',
  };
}

export function warrantQuoteFromMessage(message: WarrantQuoteMessage): WarrantQuote {
  const extend = message.warrantExtend;
  const category = extend?.category ?? '';
  return {
    ...quoteFields(message),
    impliedVolatility: required(extend?.impliedVolatility ?? '', 'implied_volatility'),
    expiryDate: isoDate(extend?.expiryDate ?? ''),
    lastTradeDate: isoDate(extend?.lastTradeDate ?? ''),
    outstandingRatio: required(extend?.outstandingRatio ?? '', 'outstanding_ratio'),
    outstandingQuantity: extend?.outstandingQty ?? 0,
    conversionRatio: required(extend?.conversionRatio ?? '', 'conversion_ratio'),
    category: (WARRANT_TYPES as readonly string[]).includes(category) ? (category as WarrantType) : 'Unknown',
    strikePrice: required(extend?.strikePrice ?? '', 'strike_price'),
    upperStrikePrice: required(extend?.upperStrikePrice ?? '', 'upper_strike_price'),
    lowerStrikePrice: required(extend?.lowerStrikePrice ?? '', 'lower_strike_price'),
    callPrice: required(extend?.callPrice ?? '', 'call_price'),
    underlyingSymbol: extend?.underlyingSymbol ?? '',
  };
}

export function strikeFromMessage(message: StrikePriceMessage): StrikePrice {
  return {
    price: parseDecimal(message.price, 'price'),
    callSymbol: message.callSymbol,
    putSymbol: message.putSymbol,
    standard: message.standard,
  };
}

export function issuerFromMessage(message: IssuerMessage): WarrantIssuer {
  return { issuerId: message.id, nameCn: message.nameCn, nameEn: message.nameEn, nameHk: message.nameHk };
}

export function warrantInfoFromMessage(message: FilterWarrantMessage): WarrantInfo {
  return {
    symbol: message.symbol,
    warrantType: WARRANT_TYPES[message.type] ?? 'Unknown',
    name: message.name,
    lastDone: required(message.lastDone, 'last_done'),
    changeRate: required(message.changeRate, 'change_rate'),
    changeValue: required(message.changeVal, 'change_val'),
    volume: message.volume,
    turnover: required(message.turnover, 'turnover'),
    expiryDate: isoDate(message.expiryDate),
    strikePrice: optional(message.strikePrice, 'strike_price'),
    upperStrikePrice: optional(message.upperStrikePrice, 'upper_strike_price'),
    lowerStrikePrice: optional(message.lowerStrikePrice, 'lower_strike_price'),
    outstandingQuantity: message.outstandingQty.trim() === '' ? 0 : Number(message.outstandingQty),
    outstandingRatio: optional(message.outstandingRatio, 'outstanding_ratio'),
    premium: optional(message.premium, 'premium'),
    itmOtm: optional(message.itmOtm, 'itm_otm'),
    impliedVolatility: optional(message.impliedVolatility, 'implied_volatility'),
    delta: optional(message.delta, 'delta'),
    callPrice: optional(message.callPrice, 'call_price'),
    toCallPrice: optional(message.toCallPrice, 'to_call_price'),
    effectiveLeverage: optional(message.effectiveLeverage, 'effective_leverage'),
    leverageRatio: optional(message.leverageRatio, 'leverage_ratio'),
    conversionRatio: optional(message.conversionRatio, 'conversion_ratio'),
    balancePoint: optional(message.balancePoint, 'balance_point'),
    status: WARRANT_STATUSES[message.status - 2] ?? 'Unknown',
  };
}
