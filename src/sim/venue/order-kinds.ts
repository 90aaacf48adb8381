// Which order types wait for a trigger, which of those trail the market, and which orders trade outside the
// regular sessions.
import type { OrderType, OutsideRth } from '../../domain/order-types.js';
import type { Market } from '../../domain/symbol.js';

const TRIGGERED: ReadonlySet<OrderType> = new Set(['LIT', 'MIT', 'TSLPAMT', 'TSLPPCT']);
const TRAILING: ReadonlySet<OrderType> = new Set(['TSLPAMT', 'TSLPPCT']);

export function isTriggeredType(orderType: OrderType): boolean {
  return TRIGGERED.has(orderType);
}

export function isTrailingType(orderType: OrderType): boolean {
  return TRAILING.has(orderType);
}

/** US orders may ask for the pre- and post-market sessions; other markets trade only in their regular ones. */
export function extendedHoursAllowed(market: Market, outsideRth: OutsideRth | undefined): boolean {
  return market === 'US' && outsideRth !== undefined && outsideRth !== 'RTH_ONLY';
}
