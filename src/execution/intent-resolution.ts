// Turns an order, close or target intent into a concrete order request against the current position.
import {
  PRICED_ORDER_TYPES,
  Quantity,
  TRIGGERED_ORDER_TYPES,
  type CloseIntent,
  type OrderIntentSpec,
  type OrderRequest,
  type TargetIntent,
} from '../domain/index.js';

export type Resolution =
  | { readonly kind: 'order'; readonly request: OrderRequest & { readonly remark: string } }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * `remark` is the client order id the request will carry. `working` is the signed quantity still to fill in
 * the symbol's open orders: close and target aim at the position those orders will leave, so an intent
 * repeated before its order has filled (or before its fill was pushed) sends nothing more.
 */
export function resolveIntent(
  intent: OrderIntentSpec | CloseIntent | TargetIntent,
  held: Quantity,
  remark: string,
  working: Quantity = Quantity.ZERO,
): Resolution {
  let side: OrderRequest['side'];
  let quantity: Quantity;
  if (intent.kind === 'order') {
    side = intent.side;
    quantity = intent.quantity;
  } else {
    const position = working.isZero() ? held : held.plus(working);
    const counting = working.isZero() ? '' : ` counting ${working.toString()} in working orders`;
    const target = intent.kind === 'close' ? Quantity.ZERO : intent.quantity;
    const delta = target.minus(position);
    if (delta.isZero())
      return {
        kind: 'skip',
        reason:
          intent.kind === 'close'
            ? `already flat in ${intent.symbol}${counting}`
            : `already at ${target.toString()} ${intent.symbol}${counting}`,
      };
    side = delta.isPositive() ? 'Buy' : 'Sell';
    quantity = delta.abs();
  }
  const orderType = intent.orderType ?? (intent.price === undefined ? 'MO' : 'LO');
  if (PRICED_ORDER_TYPES.includes(orderType) && intent.price === undefined)
    return { kind: 'invalid', reason: `${orderType} orders need a price` };
  if (TRIGGERED_ORDER_TYPES.includes(orderType) && intent.triggerPrice === undefined)
    return { kind: 'invalid', reason: `${orderType} orders need a trigger price` };
  if (orderType === 'TSLPAMT' && intent.trailingAmount === undefined)
    return { kind: 'invalid', reason: 'TSLPAMT orders need a trailing amount' };
  if (orderType === 'TSLPPCT' && intent.trailingPercent === undefined)
    return { kind: 'invalid', reason: 'TSLPPCT orders need a trailing percent' };
  if (intent.timeInForce === 'GTD' && intent.expireDate === undefined) return { kind: 'invalid', reason: 'GTD orders need an expire date' };
  // A plain literal: optional fields stay undefined (spreading them in is slow on the backtest's order path).
  return {
    kind: 'order',
    request: {
      symbol: intent.symbol,
      side,
      orderType,
      quantity,
      timeInForce: intent.timeInForce ?? 'Day',
      price: intent.price,
      triggerPrice: intent.triggerPrice,
      trailingAmount: intent.trailingAmount,
      trailingPercent: intent.trailingPercent,
      limitOffset: intent.limitOffset,
      expireDate: intent.expireDate,
      outsideRth: intent.outsideRth,
      remark,
    },
  };
}
