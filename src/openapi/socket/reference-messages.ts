// Typed codecs of the reference quote messages (proto-schema-reference.ts): recent trades, intraday lines,
// options, warrants, broker queues, participants, calc indexes and quote packages. Client and simulator share them.
import { codec } from './proto-root.js';

export interface TradeMessage {
  readonly price: string;
  readonly volume: number;
  readonly timestamp: number;
  readonly tradeType: string;
  readonly direction: number;
  readonly tradeSession: number;
}

export interface SecurityTradeRequest {
  readonly symbol: string;
  readonly count: number;
}
export interface SecurityTradeResponse {
  readonly symbol: string;
  readonly trades: readonly TradeMessage[];
}
export interface SecurityIntradayRequest {
  readonly symbol: string;
  /** 0 the regular session, 100 all sessions. */
  readonly tradeSession: number;
}
export interface IntradayLineMessage {
  readonly price: string;
  readonly timestamp: number;
  readonly volume: number;
  readonly turnover: string;
  readonly avgPrice: string;
}
export interface SecurityIntradayResponse {
  readonly symbol: string;
  readonly lines: readonly IntradayLineMessage[];
}

/** Fields 1–10 of a quote, shared by option and warrant quotes. */
export interface QuoteFields {
  readonly symbol: string;
  readonly lastDone: string;
  readonly prevClose: string;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly timestamp: number;
  readonly volume: number;
  readonly turnover: string;
  readonly tradeStatus: number;
}
export interface OptionExtend {
  readonly impliedVolatility: string;
  readonly openInterest: number;
  /** YYYYMMDD. */
  readonly expiryDate: string;
  readonly strikePrice: string;
  readonly contractMultiplier: string;
  /** "A" American, "U" European. */
  readonly contractType: string;
  readonly contractSize: string;
  /** "C" call, "P" put. */
  readonly direction: string;
  readonly historicalVolatility: string;
  readonly underlyingSymbol: string;
}
export interface OptionQuoteMessage extends QuoteFields {
  readonly optionExtend?: OptionExtend | null;
}
export interface OptionQuoteResponse {
  readonly secuQuote: readonly OptionQuoteMessage[];
}
export interface WarrantExtend {
  readonly impliedVolatility: string;
  readonly expiryDate: string;
  readonly lastTradeDate: string;
  readonly outstandingRatio: string;
  readonly outstandingQty: number;
  readonly conversionRatio: string;
  /** Call, Put, Bull, Bear or Inline. */
  readonly category: string;
  readonly strikePrice: string;
  readonly upperStrikePrice: string;
  readonly lowerStrikePrice: string;
  readonly callPrice: string;
  readonly underlyingSymbol: string;
}
export interface WarrantQuoteMessage extends QuoteFields {
  readonly warrantExtend?: WarrantExtend | null;
}
/** The quotes sit at field 2 (at field 1 the official SDK silently reads nothing). */
export interface WarrantQuoteResponse {
  readonly secuQuote: readonly WarrantQuoteMessage[];
}

export interface BrokersMessage {
  readonly position: number;
  readonly brokerIds: readonly number[];
}
export interface SecurityBrokersResponse {
  readonly symbol: string;
  readonly askBrokers: readonly BrokersMessage[];
  readonly bidBrokers: readonly BrokersMessage[];
}
export interface PushBrokers {
  readonly symbol: string;
  readonly sequence: number;
  readonly askBrokers: readonly BrokersMessage[];
  readonly bidBrokers: readonly BrokersMessage[];
}
export interface ParticipantMessage {
  readonly brokerIds: readonly number[];
  readonly participantNameCn: string;
  readonly participantNameEn: string;
  readonly participantNameHk: string;
}
export interface ParticipantBrokerIdsResponse {
  readonly participantBrokerNumbers: readonly ParticipantMessage[];
}

export interface OptionChainDateListResponse {
  readonly expiryDate: readonly string[];
}
export interface OptionChainDateStrikeInfoRequest {
  readonly symbol: string;
  readonly expiryDate: string;
}
export interface StrikePriceMessage {
  readonly price: string;
  readonly callSymbol: string;
  readonly putSymbol: string;
  readonly standard: boolean;
}
export interface OptionChainDateStrikeInfoResponse {
  readonly strikePriceInfo: readonly StrikePriceMessage[];
}

export interface IssuerMessage {
  readonly id: number;
  readonly nameCn: string;
  readonly nameEn: string;
  readonly nameHk: string;
}
export interface IssuerInfoResponse {
  readonly issuerInfo: readonly IssuerMessage[];
}

/** Wire values of the warrant filter (commands.ts WARRANT_* tables name them). */
export interface FilterConfig {
  readonly sortBy: number;
  /** 0 ascending, 1 descending. */
  readonly sortOrder: number;
  readonly sortOffset: number;
  /** 0: no paging. */
  readonly sortCount: number;
  readonly type: readonly number[];
  readonly issuer: readonly number[];
  readonly expiryDate: readonly number[];
  readonly priceType: readonly number[];
  readonly status: readonly number[];
}
export interface WarrantFilterListRequest {
  readonly symbol: string;
  readonly filterConfig?: FilterConfig | null;
  /** 0 zh-CN, 1 en, 2 zh-HK. */
  readonly language: number;
}
export interface FilterWarrantMessage {
  readonly symbol: string;
  readonly name: string;
  readonly lastDone: string;
  readonly changeRate: string;
  readonly changeVal: string;
  readonly volume: number;
  readonly turnover: string;
  readonly expiryDate: string;
  readonly strikePrice: string;
  readonly upperStrikePrice: string;
  readonly lowerStrikePrice: string;
  readonly outstandingQty: string;
  readonly outstandingRatio: string;
  readonly premium: string;
  readonly itmOtm: string;
  readonly impliedVolatility: string;
  readonly delta: string;
  readonly callPrice: string;
  readonly toCallPrice: string;
  readonly effectiveLeverage: string;
  readonly leverageRatio: string;
  readonly conversionRatio: string;
  readonly balancePoint: string;
  readonly status: number;
  readonly type: number;
}
export interface WarrantFilterListResponse {
  readonly warrantList: readonly FilterWarrantMessage[];
  readonly totalCount: number;
}

export interface SecurityCalcQuoteRequest {
  readonly symbols: readonly string[];
  /** Wire values 1–40 (CALC_INDEXES). */
  readonly calcIndex: readonly number[];
}
/** `symbol` plus one field per index (camelCase of CALC_INDEXES); the int64 ones are numbers, the rest strings. */
export type SecurityCalcIndexMessage = { readonly symbol: string } & Readonly<Record<string, string | number>>;
export interface SecurityCalcQuoteResponse {
  readonly securityCalcIndex: readonly SecurityCalcIndexMessage[];
}

export interface PackageDetail {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** Unix seconds. */
  readonly start: number;
  readonly end: number;
}
export interface UserQuoteLevelDetail {
  readonly byPackageKey: Readonly<Record<string, PackageDetail>>;
  readonly byMarketCode: Readonly<Record<string, { readonly packages: readonly PackageDetail[]; readonly warningMsg: string }>>;
}

export const referenceMessages = {
  tradeRequest: codec<SecurityTradeRequest>('SecurityTradeRequest'),
  tradeResponse: codec<SecurityTradeResponse>('SecurityTradeResponse'),
  intradayRequest: codec<SecurityIntradayRequest>('SecurityIntradayRequest'),
  intradayResponse: codec<SecurityIntradayResponse>('SecurityIntradayResponse'),
  optionQuoteResponse: codec<OptionQuoteResponse>('OptionQuoteResponse'),
  warrantQuoteResponse: codec<WarrantQuoteResponse>('WarrantQuoteResponse'),
  brokersResponse: codec<SecurityBrokersResponse>('SecurityBrokersResponse'),
  pushBrokers: codec<PushBrokers>('PushBrokers'),
  participantsRequest: codec<Record<string, never>>('ParticipantBrokerIdsRequest'),
  participantsResponse: codec<ParticipantBrokerIdsResponse>('ParticipantBrokerIdsResponse'),
  optionDatesResponse: codec<OptionChainDateListResponse>('OptionChainDateListResponse'),
  optionStrikesRequest: codec<OptionChainDateStrikeInfoRequest>('OptionChainDateStrikeInfoRequest'),
  optionStrikesResponse: codec<OptionChainDateStrikeInfoResponse>('OptionChainDateStrikeInfoResponse'),
  issuersRequest: codec<Record<string, never>>('IssuerInfoRequest'),
  issuersResponse: codec<IssuerInfoResponse>('IssuerInfoResponse'),
  warrantListRequest: codec<WarrantFilterListRequest>('WarrantFilterListRequest'),
  warrantListResponse: codec<WarrantFilterListResponse>('WarrantFilterListResponse'),
  calcIndexRequest: codec<SecurityCalcQuoteRequest>('SecurityCalcQuoteRequest'),
  calcIndexResponse: codec<SecurityCalcQuoteResponse>('SecurityCalcQuoteResponse'),
} as const;
