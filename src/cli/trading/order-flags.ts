// An OrderRequest / OrderReplacement from `trader order submit|replace` flags, refused before any request when
// it cannot be a valid order (unknown type, bad symbol, quantity ≤ 0, a limit order without price, GTD without
// an expiry date, …); a replacement is then checked against the order it replaces before it is sent.
import { InvalidInputError, TraderError } from '../../domain/errors.js';
import type { Order, OrderReplacement, OrderRequest } from '../../domain/order.js';
import { isTerminal } from '../../domain/order-status.js';
import type { OrderType } from '../../domain/order-types.js';
import { ORDER_TYPES, OUTSIDE_RTH, PRICED_ORDER_TYPES, SIDES, TIME_IN_FORCE, TRIGGERED_ORDER_TYPES } from '../../domain/order-types.js';
import { choiceFlag, dateFlag, optionalFixedFlag, optionalPriceFlag, quantityFlag, symbolFlag } from './flags.js';

/** The service keeps at most 64 characters of remark. */
export const MAX_REMARK_LENGTH = 64;

export interface OrderPriceFlags {
  readonly price?: string;
  readonly triggerPrice?: string;
  readonly limitOffset?: string;
  readonly trailingAmount?: string;
  readonly trailingPercent?: string;
  readonly remark?: string;
}

export interface SubmitFlags extends OrderPriceFlags {
  readonly symbol: string;
  readonly side: string;
  readonly type: string;
  readonly quantity: string;
  readonly tif?: string;
  readonly expireDate?: string;
  readonly outsideRth?: string;
}

export function orderRequestFromFlags(flags: SubmitFlags): OrderRequest {
  const orderType = choiceFlag(ORDER_TYPES, flags.type, '--type');
  const request: OrderRequest = {
    symbol: symbolFlag(flags.symbol),
    side: choiceFlag(SIDES, flags.side, '--side'),
    orderType,
    quantity: quantityFlag(flags.quantity, '--quantity'),
    timeInForce: choiceFlag(TIME_IN_FORCE, flags.tif ?? 'Day', '--tif'),
    ...priceFields(flags),
    ...(flags.expireDate === undefined ? {} : { expireDate: dateFlag(flags.expireDate, '--expire-date') }),
    ...(flags.outsideRth === undefined ? {} : { outsideRth: choiceFlag(OUTSIDE_RTH, flags.outsideRth, '--outside-rth') }),
  };
  const need = (present: unknown, flag: string, why: string): void => {
    if (present === undefined) throw new InvalidInputError(`${flag} is required ${why}`, flag);
  };
  if (PRICED_ORDER_TYPES.includes(orderType)) need(request.price, '--price', `for ${orderType} orders`);
  if (TRIGGERED_ORDER_TYPES.includes(orderType)) need(request.triggerPrice, '--trigger-price', `for ${orderType} orders`);
  if (orderType === 'TSLPAMT') need(request.trailingAmount, '--trailing-amount', 'for TSLPAMT orders');
  if (orderType === 'TSLPPCT') need(request.trailingPercent, '--trailing-percent', 'for TSLPPCT orders');
  if (orderType === 'TSLPAMT' || orderType === 'TSLPPCT') need(request.limitOffset, '--limit-offset', `for ${orderType} orders`);
  refuseFieldsOfOtherTypes(request, orderType);
  if (request.timeInForce === 'GTD') need(request.expireDate, '--expire-date', 'for GTD (good till date) orders');
  if (request.timeInForce !== 'GTD' && request.expireDate !== undefined) {
    throw new InvalidInputError(`--expire-date only applies to --tif GTD (got --tif ${request.timeInForce})`, '--expire-date');
  }
  return request;
}

/** The order types each price flag applies to. */
const FIELD_TYPES = [
  ['price', '--price', PRICED_ORDER_TYPES],
  ['triggerPrice', '--trigger-price', TRIGGERED_ORDER_TYPES],
  ['trailingAmount', '--trailing-amount', ['TSLPAMT']],
  ['trailingPercent', '--trailing-percent', ['TSLPPCT']],
  ['limitOffset', '--limit-offset', ['TSLPAMT', 'TSLPPCT']],
] as const satisfies readonly (readonly [keyof OrderReplacement, string, readonly OrderType[]])[];

/**
 * A flag of another order type is refused, not left for the service to ignore: `--type MO --price 350` would
 * go out as a market order while a limit at 350 was meant. `whose` ends the message: which order is of the type.
 */
function refuseFieldsOfOtherTypes(fields: Omit<OrderReplacement, 'quantity'>, orderType: OrderType, whose = ''): void {
  for (const [field, flag, types] of FIELD_TYPES) {
    if (fields[field] === undefined || (types as readonly OrderType[]).includes(orderType)) continue;
    throw new InvalidInputError(`${flag} does not apply to ${orderType} orders (only to ${types.join(', ')})${whose}`, flag);
  }
}

/**
 * A replacement checked against the order it replaces (read from the service first), so nothing is sent that
 * cannot apply: an order already final cannot change (exit status 1, as the service's refusal would be), and
 * a price flag of another order type is bad input as it is for submit (the service may ignore it, or take a
 * trigger price on a limit order).
 */
export function checkReplacement(replacement: OrderReplacement, order: Pick<Order, 'orderId' | 'orderType' | 'status'>): void {
  if (isTerminal(order.status))
    throw new TraderError('ORDER_FINAL', `order ${order.orderId} is already final (${order.status}): it cannot be replaced`);
  refuseFieldsOfOtherTypes(replacement, order.orderType, `: order ${order.orderId} is ${order.orderType}`);
}

export function replacementFromFlags(flags: OrderPriceFlags & { readonly quantity: string }): OrderReplacement {
  return { quantity: quantityFlag(flags.quantity, '--quantity'), ...priceFields(flags) };
}

function priceFields(flags: OrderPriceFlags): Omit<OrderReplacement, 'quantity'> {
  if (flags.remark !== undefined && [...flags.remark].length > MAX_REMARK_LENGTH) {
    throw new InvalidInputError(`--remark: at most ${MAX_REMARK_LENGTH} characters (got ${[...flags.remark].length})`, '--remark');
  }
  const fields = {
    price: optionalPriceFlag(flags.price, '--price'),
    triggerPrice: optionalPriceFlag(flags.triggerPrice, '--trigger-price'),
    limitOffset: optionalPriceFlag(flags.limitOffset, '--limit-offset'),
    trailingAmount: optionalPriceFlag(flags.trailingAmount, '--trailing-amount'),
    trailingPercent: optionalFixedFlag(flags.trailingPercent, '--trailing-percent'),
    remark: flags.remark,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
