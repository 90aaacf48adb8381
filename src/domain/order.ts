// Orders: what we ask a broker for (OrderRequest), and what the broker says about an order (Order, OrderUpdate).
import type { Fixed } from './fixed.js';
import type { OrderStatus } from './order-status.js';
import type { OrderType, OutsideRth, Side, TimeInForce, TriggerStatus } from './order-types.js';
import type { Price } from './price.js';
import type { Quantity } from './quantity.js';
import type { SecuritySymbol } from './symbol.js';

export interface OrderRequest {
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly quantity: Quantity;
  readonly price?: Price;
  readonly triggerPrice?: Price;
  readonly limitOffset?: Price;
  readonly trailingAmount?: Price;
  readonly trailingPercent?: Fixed;
  readonly timeInForce: TimeInForce;
  /** YYYY-MM-DD, required for GTD. */
  readonly expireDate?: string;
  readonly outsideRth?: OutsideRth;
  /** Free text kept by the broker; the executor stores its client order id here. */
  readonly remark?: string;
}

export interface OrderReplacement {
  readonly quantity: Quantity;
  readonly price?: Price;
  readonly triggerPrice?: Price;
  readonly limitOffset?: Price;
  readonly trailingAmount?: Price;
  readonly trailingPercent?: Fixed;
  readonly remark?: string;
}

/** A broker's view of one order. Times are epoch milliseconds. */
export interface Order {
  readonly orderId: string;
  readonly status: OrderStatus;
  readonly symbol: SecuritySymbol;
  readonly stockName: string;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly quantity: Quantity;
  readonly executedQuantity: Quantity;
  /** Submitted price; undefined for market orders. */
  readonly price: Price | undefined;
  /** Average executed price; undefined before the first fill. */
  readonly executedPrice: Price | undefined;
  readonly triggerPrice: Price | undefined;
  readonly timeInForce: TimeInForce;
  readonly expireDate: string | undefined;
  readonly outsideRth: OutsideRth | undefined;
  readonly currency: string;
  readonly remark: string;
  /** The venue's message, e.g. a rejection reason. */
  readonly message: string;
  readonly tag: string;
  readonly triggerStatus: TriggerStatus | undefined;
  readonly submittedAt: number;
  readonly updatedAt: number;
}

/**
 * What a report of an order must say for the runtime to follow the order (an Order or an OrderUpdate says it
 * all, an in-process venue's compact report no more): its status and execution, and the fill that caused it
 * when the report carries that.
 */
export type OrderReport = Pick<
  Order,
  'orderId' | 'remark' | 'status' | 'message' | 'symbol' | 'side' | 'quantity' | 'executedQuantity' | 'executedPrice' | 'updatedAt'
> & {
  readonly lastShare?: Quantity | undefined;
  readonly lastPrice?: Price | undefined;
};

/** A pushed change of an order (`order_changed_lb`): the order plus the fill that caused it, if any. */
export interface OrderUpdate extends Order {
  /** Quantity of the fill this push reports, when it reports one. */
  readonly lastShare: Quantity | undefined;
  /** Price of the fill this push reports, when it reports one. */
  readonly lastPrice: Price | undefined;
  readonly accountNo: string;
}
