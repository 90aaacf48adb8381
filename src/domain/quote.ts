// Market data as the service pushes it: quotes, order-book depth and trades, decimal-exact.
import type { Money } from './money.js';
import type { Price } from './price.js';
import type { SecuritySymbol } from './symbol.js';

export const TRADE_SESSIONS = ['normal', 'pre', 'post', 'overnight'] as const;
export type TradeSession = (typeof TRADE_SESSIONS)[number];

export interface Quote {
  readonly symbol: SecuritySymbol;
  readonly sequence: number;
  readonly lastDone: Price;
  readonly open: Price;
  readonly high: Price;
  readonly low: Price;
  /** Epoch milliseconds of the last trade. */
  readonly timestamp: number;
  /** Cumulative volume of the day. */
  readonly volume: number;
  /** Cumulative turnover of the day. */
  readonly turnover: Money;
  readonly tradeStatus: number;
  readonly tradeSession: TradeSession;
  /** Volume of this push alone, when the service sends it. */
  readonly currentVolume: number;
  readonly currentTurnover: Money;
}

export interface DepthLevel {
  readonly position: number;
  readonly price: Price;
  readonly volume: number;
  readonly orderCount: number;
}

export interface Depth {
  readonly symbol: SecuritySymbol;
  readonly sequence: number;
  readonly asks: readonly DepthLevel[];
  readonly bids: readonly DepthLevel[];
}

export interface MarketTrade {
  readonly price: Price;
  readonly volume: number;
  /** Epoch milliseconds. */
  readonly timestamp: number;
  readonly tradeType: string;
  /** 0 neutral, 1 down, 2 up, as the service reports it. */
  readonly direction: number;
  readonly tradeSession: TradeSession;
}

export interface Trades {
  readonly symbol: SecuritySymbol;
  readonly sequence: number;
  readonly trades: readonly MarketTrade[];
}
