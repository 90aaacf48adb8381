// Typed protobuf codecs for every message of the long connection, client and server side alike (the
// simulator's socket server encodes the responses and pushes the client decodes). Field names are camelCase;
// 64-bit integers decode as numbers (volumes and epoch times stay far below 2^53).
import { codec } from './proto-root.js';
import { referenceMessages, type TradeMessage, type UserQuoteLevelDetail } from './reference-messages.js';

export type { MessageCodec } from './proto-root.js';
export type * from './reference-messages.js';

export interface ErrorBody {
  readonly code: number;
  readonly msg: string;
}
export interface AuthRequest {
  readonly token: string;
  readonly metadata: Readonly<Record<string, string>>;
}
export interface AuthResponse {
  readonly sessionId: string;
  readonly expires: number;
  readonly limit: number;
  readonly online: number;
}
export interface ReconnectRequest {
  readonly sessionId: string;
  readonly metadata: Readonly<Record<string, string>>;
}
export type ReconnectResponse = AuthResponse;
export interface Heartbeat {
  readonly timestamp: number;
  readonly heartbeatId: number;
}
export interface Close {
  readonly code: number;
  readonly reason: string;
}

export interface UserQuoteProfileRequest {
  readonly language: string;
}
export interface RateLimitEntry {
  readonly command: number;
  readonly limit: number;
  readonly burst: number;
}
export interface UserQuoteProfileResponse {
  readonly memberId: number;
  readonly quoteLevel: string;
  readonly subscribeLimit: number;
  readonly historyCandlestickLimit: number;
  readonly rateLimit: readonly RateLimitEntry[];
  readonly quoteLevelDetail?: UserQuoteLevelDetail | null;
}

export interface MultiSecurityRequest {
  readonly symbol: readonly string[];
}
export interface SecurityRequest {
  readonly symbol: string;
}
export interface StaticInfo {
  readonly symbol: string;
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
  readonly eps: string;
  readonly epsTtm: string;
  readonly bps: string;
  readonly dividendYield: string;
  readonly stockDerivatives: readonly number[];
  readonly board: string;
}
export interface SecurityStaticInfoResponse {
  readonly secuStaticInfo: readonly StaticInfo[];
}
export interface PrePostQuote {
  readonly lastDone: string;
  readonly timestamp: number;
  readonly volume: number;
  readonly turnover: string;
  readonly high: string;
  readonly low: string;
  readonly prevClose: string;
}
export interface SecurityQuote {
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
  readonly preMarketQuote?: PrePostQuote | null;
  readonly postMarketQuote?: PrePostQuote | null;
  readonly overNightQuote?: PrePostQuote | null;
}
export interface SecurityQuoteResponse {
  readonly secuQuote: readonly SecurityQuote[];
}

export interface SubscribeRequest {
  readonly symbol: readonly string[];
  readonly subType: readonly number[];
  readonly isFirstPush: boolean;
}
export interface UnsubscribeRequest {
  readonly symbol: readonly string[];
  readonly subType: readonly number[];
  readonly unsubAll: boolean;
}
export interface SubscriptionResponse {
  readonly subList: readonly { readonly symbol: string; readonly subType: readonly number[] }[];
}

export interface MarketTradeDayRequest {
  readonly market: string;
  readonly begDay: string;
  readonly endDay: string;
}
export interface MarketTradeDayResponse {
  readonly tradeDay: readonly string[];
  readonly halfTradeDay: readonly string[];
}
export interface TradePeriod {
  readonly begTime: number;
  readonly endTime: number;
  readonly tradeSession: number;
}
export interface MarketTradePeriodResponse {
  readonly marketTradeSession: readonly { readonly market: string; readonly tradeSession: readonly TradePeriod[] }[];
}

export interface SecurityCandlestickRequest {
  readonly symbol: string;
  readonly period: number;
  readonly count: number;
  readonly adjustType: number;
  readonly tradeSession: number;
}
export interface SecurityHistoryCandlestickRequest {
  readonly symbol: string;
  readonly period: number;
  readonly adjustType: number;
  readonly queryType: number;
  readonly offsetRequest?: { readonly direction: number; readonly date: string; readonly minute: string; readonly count: number } | null;
  readonly dateRequest?: { readonly startDate: string; readonly endDate: string } | null;
  readonly tradeSession: number;
}
export interface CandlestickMessage {
  readonly close: string;
  readonly open: string;
  readonly low: string;
  readonly high: string;
  readonly volume: number;
  readonly turnover: string;
  readonly timestamp: number;
  readonly tradeSession: number;
}
export interface SecurityCandlestickResponse {
  readonly symbol: string;
  readonly candlesticks: readonly CandlestickMessage[];
}

export interface CapitalFlowIntradayResponse {
  readonly symbol: string;
  readonly capitalFlowLines: readonly { readonly inflow: string; readonly timestamp: number }[];
}
export interface CapitalDistribution {
  readonly large: string;
  readonly medium: string;
  readonly small: string;
}
export interface CapitalDistributionResponse {
  readonly symbol: string;
  readonly timestamp: number;
  readonly capitalIn?: CapitalDistribution | null;
  readonly capitalOut?: CapitalDistribution | null;
}

export interface PushQuote {
  readonly symbol: string;
  readonly sequence: number;
  readonly lastDone: string;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly timestamp: number;
  readonly volume: number;
  readonly turnover: string;
  readonly tradeStatus: number;
  readonly tradeSession: number;
  readonly currentVolume: number;
  readonly currentTurnover: string;
  readonly tag: number;
}
export interface DepthLevelMessage {
  readonly position: number;
  readonly price: string;
  readonly volume: number;
  readonly orderNum: number;
}
export interface PushDepth {
  readonly symbol: string;
  readonly sequence: number;
  readonly ask: readonly DepthLevelMessage[];
  readonly bid: readonly DepthLevelMessage[];
}
export interface SecurityDepthResponse {
  readonly symbol: string;
  readonly ask: readonly DepthLevelMessage[];
  readonly bid: readonly DepthLevelMessage[];
}
export interface PushTrade {
  readonly symbol: string;
  readonly sequence: number;
  readonly trade: readonly TradeMessage[];
}

export interface Sub {
  readonly topics: readonly string[];
}
export interface SubResponse {
  readonly success: readonly string[];
  readonly fail: readonly { readonly topic: string; readonly reason: string }[];
  readonly current: readonly string[];
}
export interface UnsubResponse {
  readonly current: readonly string[];
}
export interface Notification {
  readonly topic: string;
  readonly contentType: number;
  readonly dispatchType: number;
  readonly data: Uint8Array;
}

export const messages = {
  error: codec<ErrorBody>('Error'),
  authRequest: codec<AuthRequest>('AuthRequest'),
  authResponse: codec<AuthResponse>('AuthResponse'),
  reconnectRequest: codec<ReconnectRequest>('ReconnectRequest'),
  reconnectResponse: codec<ReconnectResponse>('ReconnectResponse'),
  heartbeat: codec<Heartbeat>('Heartbeat'),
  close: codec<Close>('Close'),
  quoteProfileRequest: codec<UserQuoteProfileRequest>('UserQuoteProfileRequest'),
  quoteProfileResponse: codec<UserQuoteProfileResponse>('UserQuoteProfileResponse'),
  multiSecurityRequest: codec<MultiSecurityRequest>('MultiSecurityRequest'),
  securityRequest: codec<SecurityRequest>('SecurityRequest'),
  staticInfoResponse: codec<SecurityStaticInfoResponse>('SecurityStaticInfoResponse'),
  quoteResponse: codec<SecurityQuoteResponse>('SecurityQuoteResponse'),
  subscribeRequest: codec<SubscribeRequest>('SubscribeRequest'),
  unsubscribeRequest: codec<UnsubscribeRequest>('UnsubscribeRequest'),
  subscriptionRequest: codec<Record<string, never>>('SubscriptionRequest'),
  subscriptionResponse: codec<SubscriptionResponse>('SubscriptionResponse'),
  tradeDayRequest: codec<MarketTradeDayRequest>('MarketTradeDayRequest'),
  tradeDayResponse: codec<MarketTradeDayResponse>('MarketTradeDayResponse'),
  tradePeriodResponse: codec<MarketTradePeriodResponse>('MarketTradePeriodResponse'),
  candlestickRequest: codec<SecurityCandlestickRequest>('SecurityCandlestickRequest'),
  historyCandlestickRequest: codec<SecurityHistoryCandlestickRequest>('SecurityHistoryCandlestickRequest'),
  candlestickResponse: codec<SecurityCandlestickResponse>('SecurityCandlestickResponse'),
  capitalFlowRequest: codec<SecurityRequest>('CapitalFlowIntradayRequest'),
  capitalFlowResponse: codec<CapitalFlowIntradayResponse>('CapitalFlowIntradayResponse'),
  capitalDistributionResponse: codec<CapitalDistributionResponse>('CapitalDistributionResponse'),
  depthResponse: codec<SecurityDepthResponse>('SecurityDepthResponse'),
  tradePeriodRequest: codec<Record<string, never>>('MarketTradePeriodRequest'),
  pushQuote: codec<PushQuote>('PushQuote'),
  pushDepth: codec<PushDepth>('PushDepth'),
  pushTrade: codec<PushTrade>('PushTrade'),
  sub: codec<Sub>('Sub'),
  subResponse: codec<SubResponse>('SubResponse'),
  unsub: codec<Sub>('Unsub'),
  unsubResponse: codec<UnsubResponse>('UnsubResponse'),
  notification: codec<Notification>('Notification'),
  ...referenceMessages,
} as const;
