// What a strategy asks for. Intents are requests, not orders: the risk layer may deny them, and
// `close`/`target` are resolved against the current position into a concrete OrderRequest.
import type { Price } from './price.js';
import type { Quantity } from './quantity.js';
import type { OrderType, OutsideRth, Side, TimeInForce } from './order-types.js';
import type { SecuritySymbol } from './symbol.js';

interface PricedIntent {
  /** Defaults to MO (market) when no price is given, LO when a price is given. */
  readonly orderType?: OrderType;
  readonly price?: Price;
  readonly triggerPrice?: Price;
  readonly timeInForce?: TimeInForce;
  readonly expireDate?: string;
  readonly outsideRth?: OutsideRth;
  /** Why the strategy wants this; journaled and logged. */
  readonly reason?: string;
}

export interface OrderIntentSpec extends PricedIntent {
  readonly kind: 'order';
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  readonly quantity: Quantity;
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
}

/** Cancel this strategy's open orders in `symbol` (all symbols when omitted). */
export interface CancelIntent {
  readonly kind: 'cancel';
  readonly symbol?: SecuritySymbol;
  readonly reason?: string;
}

export type OrderIntent = OrderIntentSpec | CloseIntent | TargetIntent | CancelIntent;
