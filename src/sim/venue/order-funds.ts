// Where an order's reservation starts: its matching state and reference price from its fields and the mark,
// then whether the account can carry it (held shares, short selling, buying power).
import { Fixed } from '../../domain/fixed.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import type { Accounts, Reservation } from './accounts.js';
import { markOf, type SymbolSlot } from './book.js';
import { isTrailingType, isTriggeredType } from './order-kinds.js';
import { remainingOf, type OrderRecord } from './orders.js';

const HUNDRED = Fixed.of(100);

/** Sets the matching state and the reservation basis from the order's current fields and the mark. */
export function prepareOrder(accounts: Accounts, slot: SymbolSlot, record: OrderRecord, now: number): void {
  record.limit = record.price === undefined ? Number.NaN : record.price.toNumber();
  record.trigger = record.triggerPrice === undefined ? Number.NaN : record.triggerPrice.toNumber();
  if (!record.triggered && isTrailingType(record.orderType)) {
    record.triggerDirection = record.side === 'Buy' ? 1 : -1;
    record.trailExtreme = Number.isNaN(record.trailExtreme) ? slot.mark : record.trailExtreme;
  } else if (!record.triggered && isTriggeredType(record.orderType)) {
    record.triggerDirection = slot.mark < record.trigger ? 1 : -1;
    if (slot.mark === record.trigger) {
      record.triggered = true;
      record.triggerAt = now;
      record.triggerStatus = 'RELEASED';
    }
  }
  const remaining = remainingOf(record);
  const opening = remaining.minus(accounts.closable(slot, record.side, Quantity.ZERO));
  record.openingQuantity = opening.isPositive() ? opening : Quantity.ZERO;
  record.referencePrice = referencePriceOf(accounts, slot, record);
}

function referencePriceOf(accounts: Accounts, slot: SymbolSlot, record: OrderRecord): Price {
  if (isTrailingType(record.orderType) && !record.triggered) {
    // Reserve at the price the stop would trigger at now, plus the limit offset for a buy.
    const mark = markOf(slot);
    const percent = mark.times(record.trailingPercent ?? Fixed.ZERO);
    // ÷ 100 is exact two places further on.
    const trail = record.trailingAmount ?? percent.dividedBy(HUNDRED, percent.precision + 2).normalized();
    return record.side === 'Buy' ? mark.plus(trail).plus(record.limitOffset ?? Price.ZERO) : mark.minus(trail);
  }
  const price = record.orderType === 'MO' || record.orderType === 'AO' ? undefined : record.price;
  return accounts.referencePrice(slot, record.side, price, record.triggerPrice);
}

/** The order's reservation when the account can carry it, else (a string) why not. */
export function fundsCheck(accounts: Accounts, shortSelling: boolean, slot: SymbolSlot, record: OrderRecord): Reservation | string {
  if (record.status === 'NotReported') prepareOrder(accounts, slot, record, record.submittedAt);
  if (record.side === 'Sell' && record.openingQuantity.isPositive() && !shortSelling) {
    const available = remainingOf(record).minus(record.openingQuantity);
    return `insufficient position: ${available.toString()} of ${record.symbol} available to sell, ${remainingOf(record).toString()} requested (short selling is off)`;
  }
  const reservation = accounts.reservationOf(slot, record);
  if (reservation.margin.isZero()) return reservation;
  const excess = accounts.figures(slot.ledger).excess;
  if (reservation.margin.gt(excess)) {
    const needed = reservation.margin.roundTo(2).toString();
    const available = excess.isNegative() ? '0' : excess.roundTo(2).toString();
    return `insufficient buying power: the order needs ${needed} ${slot.ledger.currency}, ${available} available`;
  }
  return reservation;
}
