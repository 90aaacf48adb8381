// Checks a submission must pass before it can rest on the book. Each failure is a rejection reason the
// order carries in its message; funds and position checks come later, against the account.
import { Fixed } from '../../domain/fixed.js';
import type { FixedPoint } from '../../domain/fixed-point.js';
import { REGULAR_SESSIONS } from '../../domain/market-hours.js';
import type { OrderReplacement, OrderRequest } from '../../domain/order.js';
import { PRICED_ORDER_TYPES } from '../../domain/order-types.js';
import type { SymbolSlot } from './book.js';
import { extendedHoursAllowed, isTrailingType } from './order-kinds.js';
import { dateKey } from './market-days.js';
import type { OrderRecord } from './orders.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const HUNDRED = Fixed.of(100);

function positive(value: FixedPoint | undefined): boolean {
  return value !== undefined && value.isPositive();
}

/** The reason `request` is malformed, or undefined. */
export function requestProblem(request: OrderRequest): string | undefined {
  if (!positive(request.quantity)) return `bad quantity: ${request.quantity.toString()} is not a positive number`;
  if (PRICED_ORDER_TYPES.includes(request.orderType) && !positive(request.price)) {
    return `bad price: ${request.orderType} orders need a positive price${request.price === undefined ? '' : `, got ${request.price.toString()}`}`;
  }
  if (request.price !== undefined && !positive(request.price)) return `bad price: ${request.price.toString()} is not a positive number`;
  if ((request.orderType === 'LIT' || request.orderType === 'MIT') && !positive(request.triggerPrice)) {
    return `bad trigger price: ${request.orderType} orders need a positive trigger price`;
  }
  if (request.orderType === 'TSLPAMT' && !positive(request.trailingAmount))
    return 'bad trailing amount: TSLPAMT orders need a positive trailing amount';
  if (request.orderType === 'TSLPPCT' && !(positive(request.trailingPercent) && request.trailingPercent!.lt(HUNDRED))) {
    return 'bad trailing percent: TSLPPCT orders need a trailing percent between 0 and 100';
  }
  if (isTrailingType(request.orderType) && request.limitOffset?.isNegative()) return 'bad limit offset: must not be negative';
  if (request.timeInForce === 'GTD') {
    if (request.expireDate === undefined) return 'expire_date is required for GTD orders';
    if (!DATE.test(request.expireDate)) return `expire_date "${request.expireDate}" is not a YYYY-MM-DD date`;
  }
  return undefined;
}

/** The reason the market cannot take `request` now, or undefined. */
export function marketProblem(request: OrderRequest, slot: SymbolSlot | undefined, now: number, sessionCheck: boolean): string | undefined {
  if (slot === undefined || Number.isNaN(slot.mark)) return `unknown symbol: no market data for ${request.symbol} yet`;
  if (request.timeInForce === 'GTD' && dateKey(request.expireDate!) < slot.days.dayKey(now))
    return `expire_date ${request.expireDate} is in the past`;
  if (sessionCheck && !extendedHoursAllowed(slot.market, request.outsideRth) && !slot.days.inSession(now)) {
    const sessions = REGULAR_SESSIONS[slot.market].map((session) => `${hhmm(session.begin)}-${hhmm(session.end)}`).join(', ');
    return `market closed: ${slot.market} trades ${sessions} local time`;
  }
  return undefined;
}

function hhmm(value: number): string {
  return `${String(Math.floor(value / 100)).padStart(2, '0')}:${String(value % 100).padStart(2, '0')}`;
}

/** The reason a replacement of `record` is malformed, or undefined. */
export function replacementProblem(record: OrderRecord, replacement: OrderReplacement): string | undefined {
  if (!replacement.quantity.gt(record.executedQuantity)) {
    return `quantity ${replacement.quantity.toString()} must exceed the executed quantity ${record.executedQuantity.toString()}`;
  }
  for (const [field, value] of [
    ['price', replacement.price],
    ['trigger price', replacement.triggerPrice],
    ['trailing amount', replacement.trailingAmount],
    ['trailing percent', replacement.trailingPercent],
  ] as const) {
    if (value !== undefined && !value.isPositive()) return `bad ${field}: ${value.toString()} is not a positive number`;
  }
  if (replacement.price !== undefined && (record.orderType === 'MO' || record.orderType === 'AO'))
    return `bad price: ${record.orderType} orders take no price`;
  return undefined;
}
