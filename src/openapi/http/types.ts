// Results and queries of the OpenAPI calls that have no home in the domain (order detail extras, watchlist,
// securities, statements, community topics, tokens, market temperature, executions, cash flow, funds).
// Decimals stay Decimal; times are epoch milliseconds.
import type { Decimal } from '../../domain/decimal.js';
import type { Order } from '../../domain/order.js';
import type { OrderStatus } from '../../domain/order-status.js';
import type { Market } from '../../domain/symbol.js';

export interface OrderHistoryEntry {
  readonly price: Decimal;
  readonly quantity: Decimal;
  readonly status: OrderStatus;
  readonly message: string;
  readonly time: number;
}

export interface ChargeFee {
  readonly code: string;
  readonly name: string;
  readonly amount: Decimal;
  readonly currency: string;
}

export interface ChargeItem {
  readonly code: string;
  readonly name: string;
  readonly fees: readonly ChargeFee[];
}

export interface ChargeDetail {
  readonly totalAmount: Decimal;
  readonly currency: string;
  readonly items: readonly ChargeItem[];
}

/** A fee waiver or deduction as the service reports it (status strings are passed through). */
export interface FeeAdjustment {
  readonly status: string;
  readonly amount: Decimal | undefined;
  readonly currency: string;
}

/** `GET /v1/trade/order`: the order plus its status history and charges. */
export interface OrderDetail extends Order {
  readonly lastDone: Decimal | undefined;
  readonly limitOffset: Decimal | undefined;
  readonly trailingAmount: Decimal | undefined;
  readonly trailingPercent: Decimal | undefined;
  readonly triggerAt: number | undefined;
  readonly history: readonly OrderHistoryEntry[];
  readonly chargeDetail: ChargeDetail | undefined;
  readonly commissionFree: FeeAdjustment;
  readonly deductions: FeeAdjustment;
  readonly platformDeducted: FeeAdjustment;
}

export interface HistoryOrders {
  readonly hasMore: boolean;
  readonly orders: readonly Order[];
}

export interface WatchlistSecurity {
  /** As the service lists it (may be an index or an option code, so not validated as a SecuritySymbol). */
  readonly symbol: string;
  readonly market: string;
  readonly name: string;
  readonly watchedPrice: Decimal | undefined;
  readonly watchedAt: number | undefined;
}

export interface WatchlistGroup {
  readonly id: string;
  readonly name: string;
  readonly securities: readonly WatchlistSecurity[];
}

export const SECURITY_LANGUAGES = ['en', 'zh-CN', 'zh-HK'] as const;
export type SecurityLanguage = (typeof SECURITY_LANGUAGES)[number];

export interface SecurityListQuery {
  readonly market: Market;
  /** The only category the service documents is "Overnight". */
  readonly category?: string;
  /** Sent as `accept-language`; the service then fills in the names of that language only. */
  readonly language?: SecurityLanguage;
}

export interface Security {
  readonly symbol: string;
  /** The name in the requested language (falling back to any name present). */
  readonly name: string;
  readonly nameEn: string;
  readonly nameCn: string;
  readonly nameHk: string;
}

export const STATEMENT_TYPES = { daily: 1, monthly: 2 } as const;
export type StatementType = keyof typeof STATEMENT_TYPES;

export interface StatementQuery {
  readonly type: StatementType;
  /** 1-based page (the wire calls it `start_date`). */
  readonly page?: number;
  readonly pageSize?: number;
}

export interface Statement {
  /** Statement date as the service writes it, e.g. 20240105 (daily) or 202401 (monthly). */
  readonly date: number;
  readonly fileKey: string;
}

export interface TopicAuthor {
  readonly memberId: string;
  readonly name: string;
}

/** A community topic. Field lists are sparsely documented: everything but `id` may be empty. */
export interface Topic {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly body: string;
  readonly author: TopicAuthor;
  readonly tickers: readonly string[];
  readonly hashtags: readonly string[];
  readonly topicType: string;
  readonly likesCount: number;
  readonly commentsCount: number;
  readonly viewsCount: number;
  readonly detailUrl: string;
  readonly createdAt: number | undefined;
  readonly updatedAt: number | undefined;
}

export interface TopicReply {
  readonly id: string;
  readonly topicId: string;
  readonly body: string;
  /** "0" for a top-level reply. */
  readonly replyToId: string;
  readonly author: TopicAuthor;
  readonly likesCount: number;
  readonly commentsCount: number;
  readonly createdAt: number | undefined;
}

export interface PageQuery {
  readonly page?: number;
  readonly size?: number;
}

export interface MyTopicsQuery extends PageQuery {
  /** "article" or "post"; all when absent. */
  readonly topicType?: string;
}

export interface NewTopic {
  readonly title: string;
  /** Markdown. */
  readonly body: string;
  readonly topicType?: string;
  readonly tickers?: readonly string[];
  readonly hashtags?: readonly string[];
}

export interface NewTopicReply {
  /** Plain text. */
  readonly body: string;
  readonly replyToId?: string;
}

export interface RefreshedToken {
  readonly token: string;
  readonly expiresAt: number;
  readonly issuedAt: number | undefined;
}

/** `GET /v1/socket/token`: a one-time password for the long connection and the session counts. */
export interface SocketToken {
  readonly otp: string;
  readonly limit: number;
  readonly online: number;
}

export interface NewWatchlistGroup {
  readonly name: string;
  readonly securities?: readonly string[];
}

export const WATCHLIST_UPDATE_MODES = ['add', 'remove', 'replace'] as const;
export type WatchlistUpdateMode = (typeof WATCHLIST_UPDATE_MODES)[number];

export interface WatchlistGroupUpdate {
  readonly id: string | number;
  /** A new name; unchanged when absent. */
  readonly name?: string;
  /** Securities to add, remove or put in place of the current ones (mode, default replace). */
  readonly securities?: readonly string[];
  readonly mode?: WatchlistUpdateMode;
}

/** A market's temperature: 0 (cold) to 100 (hot), with its valuation and sentiment parts. */
export interface MarketTemperature {
  readonly temperature: number;
  readonly description: string;
  readonly valuation: number;
  readonly sentiment: number;
  /** Epoch ms. */
  readonly updatedAt: number;
}

export interface TemperatureHistory {
  /** `unknown` for a granularity this client does not know. */
  readonly granularity: 'daily' | 'weekly' | 'monthly' | 'unknown';
  readonly records: readonly {
    readonly time: number;
    readonly temperature: number;
    readonly valuation: number;
    readonly sentiment: number;
  }[];
}

/** One fill of an order as the service reports it. */
export interface Execution {
  readonly orderId: string;
  readonly tradeId: string;
  readonly symbol: string;
  /** Epoch ms. */
  readonly tradeDoneAt: number;
  readonly quantity: Decimal;
  readonly price: Decimal;
}

export interface TodayExecutionQuery {
  readonly symbol?: string;
  readonly orderId?: string;
}

export interface HistoryExecutionQuery {
  readonly symbol?: string;
  /** Epoch ms; the service looks back 90 days by default and leaves today out. */
  readonly startAt?: number;
  readonly endAt?: number;
}

export const CASH_FLOW_TYPES = ['cash', 'stock', 'fund'] as const;
export type CashFlowType = (typeof CASH_FLOW_TYPES)[number];

export interface CashFlowQuery {
  /** Epoch ms, both required by the service. */
  readonly startAt: number;
  readonly endAt: number;
  readonly businessType?: CashFlowType;
  readonly symbol?: string;
  /** 1-based page, default 1. */
  readonly page?: number;
  /** 1–10000, default 50. */
  readonly size?: number;
}

export interface CashFlow {
  readonly name: string;
  readonly direction: 'in' | 'out' | 'unknown';
  readonly businessType: CashFlowType | 'unknown';
  /** Cash in `currency`, or a number of shares or units. */
  readonly balance: Decimal;
  readonly currency: string;
  /** Epoch ms. */
  readonly businessTime: number;
  readonly symbol: string | undefined;
  readonly description: string;
}

export interface FundPosition {
  readonly accountChannel: string;
  /** ISIN. */
  readonly symbol: string;
  readonly symbolName: string;
  readonly currency: string;
  readonly holdingUnits: Decimal;
  readonly currentNetAssetValue: Decimal;
  readonly costNetAssetValue: Decimal;
  /** Epoch ms of the net asset value. */
  readonly netAssetValueDay: number | undefined;
}

/** A signed call of any path, as the SDK's HttpClient.request makes it. */
export interface RawRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, with its query string if any: `/v1/quote/market_temperature?market=HK`. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  readonly body?: unknown;
}
