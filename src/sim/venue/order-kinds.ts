// Which order types wait for a trigger, and which of those trail the market.
import type { OrderType } from '../../domain/order-types.js';

const TRIGGERED: ReadonlySet<OrderType> = new Set(['LIT', 'MIT', 'TSLPAMT', 'TSLPPCT']);
const TRAILING: ReadonlySet<OrderType> = new Set(['TSLPAMT', 'TSLPPCT']);

export function isTriggeredType(orderType: OrderType): boolean {
  return TRIGGERED.has(orderType);
}

export function isTrailingType(orderType: OrderType): boolean {
  return TRAILING.has(orderType);
}
