// What a client can do with the simulator, once for every client the contract suite runs through (the official
// SDK and our own): plain values out, decimals as their exact text, times as epoch ms, statuses by wire name.
import type { Pushes } from './pushes.js';

export interface DriverOrder {
  readonly orderId: string;
  readonly status: string;
  readonly symbol: string;
  readonly side: 'Buy' | 'Sell';
  readonly quantity: string;
  readonly executedQuantity: string;
  readonly price: string | undefined;
  readonly executedPrice: string | undefined;
  readonly remark: string;
}

export interface DriverOrderDetail extends DriverOrder {
  /** Statuses of the history entries, oldest first. */
  readonly history: readonly string[];
}

export interface OrderPush {
  readonly orderId: string;
  readonly status: string;
  readonly executedQuantity: string;
  readonly lastShare: string | undefined;
  readonly lastPrice: string | undefined;
}

export interface QuotePush {
  readonly symbol: string;
  readonly lastDone: string;
  readonly volume: number;
}

export interface NewOrder {
  readonly symbol: string;
  readonly side: 'Buy' | 'Sell';
  readonly type: 'LO' | 'MO';
  readonly quantity: string;
  readonly price?: string;
  readonly remark?: string;
}

export interface Bar {
  readonly time: number;
  readonly open: string;
  readonly close: string;
  readonly volume: number;
}

export interface SimulatorDriver {
  balance(currency: string): Promise<{ readonly totalCash: string; readonly netAssets: string; readonly buyPower: string }>;
  positions(): Promise<
    { readonly symbol: string; readonly quantity: string; readonly availableQuantity: string; readonly costPrice: string }[]
  >;
  submit(order: NewOrder): Promise<string>;
  replace(orderId: string, quantity: string, price: string): Promise<void>;
  cancel(orderId: string): Promise<void>;
  todayOrders(): Promise<DriverOrder[]>;
  orderDetail(orderId: string): Promise<DriverOrderDetail>;
  buyLimit(symbol: string, price: string): Promise<{ readonly cash: string; readonly margin: string }>;
  marginRatio(symbol: string): Promise<{ readonly im: string; readonly mm: string; readonly fm: string }>;
  watchlist(): Promise<{ readonly name: string; readonly symbols: readonly string[] }[]>;
  /** Subscribes the trade topic; order changes land in `orderPushes`. */
  watchOrders(): Promise<void>;
  readonly orderPushes: Pushes<OrderPush>;
  /** Subscribes quotes, resolving once the simulator holds the subscription; pushes land in `quotePushes`. */
  watchQuotes(symbols: readonly string[]): Promise<void>;
  readonly quotePushes: Pushes<QuotePush>;
  staticInfo(
    symbols: readonly string[],
  ): Promise<{ readonly symbol: string; readonly name: string; readonly lotSize: number; readonly currency: string }[]>;
  quote(
    symbols: readonly string[],
  ): Promise<{ readonly symbol: string; readonly lastDone: string; readonly prevClose: string; readonly volume: number }[]>;
  /** One-minute bars of a date range (YYYY-MM-DD, inclusive). */
  historyByDate(symbol: string, from: string, to: string): Promise<Bar[]>;
  /** The latest `count` one-minute bars. */
  latestHistory(symbol: string, count: number): Promise<Bar[]>;
  tradingDays(market: 'HK' | 'US', from: string, to: string): Promise<string[]>;
  close(): Promise<void>;
}
