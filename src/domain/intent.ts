// What a strategy asks for. Intents are requests, not orders: the risk layer may deny them, and
// `close`/`target` are resolved against the current position into a concrete OrderRequest.
import type { Fixed } from './fixed.js';
import type { Price } from './price.js';
import type { Quantity } from './quantity.js';
import type { OrderType, OutsideRth, Side, TimeInForce } from './order-types.js';
import type { SecuritySymbol } from './symbol.js';

interface PricedIntent {
  /** Defaults to MO (market) when no price is given, LO when a price is given. */
  readonly orderType?: OrderType;
  readonly price?: Price;
  readonly triggerPrice?: Price;
  /** TSLPAMT: how far the trigger trails the best price, in price units. */
  readonly trailingAmount?: Price;
  /** TSLPPCT: how far the trigger trails the best price, in percent (5 = 5 %), as the service takes it. */
  readonly trailingPercent?: Fixed;
  /** Trailing orders: the limit's distance beyond the trigger once it is touched (0 when omitted). */
  readonly limitOffset?: Price;
  readonly timeInForce?: TimeInForce;
  readonly expireDate?: string;
  readonly outsideRth?: OutsideRth;
  /** Why the strategy wants this; journaled and logged. */
  readonly reason?: string;
  /**
   * A short label carried into the order, its fills and the trades they make (JSON, summary, report, logs),
   * e.g. 'entry', 'signal-exit'; exits the runtime places carry 'stop-loss', 'take-profit', 'trailing-stop'.
   */
  readonly tag?: string;
}

/** A level away from the entry's average cost: a fraction of it (0.05 = 5 %) or an amount in price units. */
export type ExitDistance = { readonly percent: number } | { readonly amount: number };

/**
 * Exits attached to an entry (a bracket): held by the runtime while the position is open (and kept in the
 * journal of paper and live runs, so a restart re-arms them), sent as a close when a closed bar reaches
 * one, and dropped when the position is closed or reversed otherwise.
 */
export interface ExitSpec {
  readonly stopLoss?: ExitDistance;
  readonly takeProfit?: ExitDistance;
  /** Follows the best price since the entry (the highest high of a long, the lowest low of a short). */
  readonly trailingStop?: ExitDistance;
}

export interface OrderIntentSpec extends PricedIntent {
  readonly kind: 'order';
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  readonly quantity: Quantity;
  readonly exits?: ExitSpec;
}

/** Bring the position in `symbol` to zero. */
export interface CloseIntent extends PricedIntent {
  readonly kind: 'close';
  readonly symbol: SecuritySymbol;
}

/** Bring the position in `symbol` to `quantity` (negative means short). */
export interface TargetIntent extends PricedIntent {
  readonly kind: 'target';
  readonly symbol: SecuritySymbol;
  readonly quantity: Quantity;
  readonly exits?: ExitSpec;
}

/** Cancel this strategy's open orders in `symbol` (all symbols when omitted). */
export interface CancelIntent {
  readonly kind: 'cancel';
  readonly symbol?: SecuritySymbol;
  readonly reason?: string;
  readonly tag?: string;
}

export type OrderIntent = OrderIntentSpec | CloseIntent | TargetIntent | CancelIntent;
