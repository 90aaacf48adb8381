// Corporate actions and carry on the venue's books: cash dividends paid to holders (and charged to short
// holders) on the ex-date, share splits applied to positions, average costs, marks and open orders, and the
// borrow fee a short position pays for each day it is held.
import { Decimal, ZERO } from '../../domain/decimal.js';
import { toNumber } from '../../domain/decimal-shortcuts.js';
import type { CorporateAction } from '../../domain/corporate-action.js';
import { markOf, refreshFloats, type SymbolSlot } from './book.js';
import type { OrderRecord } from './orders.js';

export type { CorporateAction };

/** Pays quantity × perShare into the ledger (a short position pays it); returns the signed amount. */
export function payDividend(slot: SymbolSlot, perShare: Decimal): Decimal {
  const held = slot.position?.position.quantity ?? ZERO;
  if (held.isZero()) return ZERO;
  const amount = held.times(perShare).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
  slot.ledger.cash = slot.ledger.cash.plus(amount);
  refreshFloats(slot.ledger);
  return amount;
}

/**
 * Splits the position (average cost ÷ ratio), the mark and the open orders (quantities × ratio, prices ÷
 * ratio). A fractional share a split leaves is paid out in cash at the new mark ("cash in lieu").
 */
export function splitShares(slot: SymbolSlot, ratio: Decimal, reserve: (record: OrderRecord) => void): Decimal {
  let cashInLieu = ZERO;
  if (!Number.isNaN(slot.mark)) {
    slot.mark = toNumber(markOf(slot).dividedBy(ratio));
    slot.markDecimal = undefined;
  }
  const held = slot.position;
  if (held !== undefined && !held.position.quantity.isZero()) {
    const exact = held.position.quantity.times(ratio);
    const whole = exact.isNegative() ? exact.ceil() : exact.floor();
    const cost = held.position.averageCost.dividedBy(ratio);
    if (!exact.eq(whole) && !Number.isNaN(slot.mark)) {
      cashInLieu = exact.minus(whole).times(markOf(slot)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
      slot.ledger.cash = slot.ledger.cash.plus(cashInLieu);
    }
    held.position = { ...held.position, quantity: whole, averageCost: whole.isZero() ? ZERO : cost };
    held.initQuantity = held.initQuantity.times(ratio).floor();
    slot.quantity = toNumber(whole);
  }
  for (const record of slot.resting) {
    record.quantity = record.quantity.times(ratio).floor();
    record.executedQuantity = record.executedQuantity.times(ratio).floor();
    record.price = record.price?.dividedBy(ratio);
    record.triggerPrice = record.triggerPrice?.dividedBy(ratio);
    record.trailingAmount = record.trailingAmount?.dividedBy(ratio);
    record.limit = record.price === undefined ? Number.NaN : toNumber(record.price);
    record.trigger = record.triggerPrice === undefined ? Number.NaN : toNumber(record.triggerPrice);
    if (!Number.isNaN(record.trailExtreme)) record.trailExtreme /= ratio.toNumber();
    record.openingQuantity = record.openingQuantity.times(ratio).floor();
    record.referencePrice = record.referencePrice.dividedBy(ratio);
    reserve(record);
  }
  slot.ledger.sums.changed(slot);
  refreshFloats(slot.ledger);
  return cashInLieu;
}

/** Charges a short position `days` days of borrow fee at `annualRate` on its value at the mark; returns the fee. */
export function chargeBorrowFee(slot: SymbolSlot, annualRate: number, days: number): Decimal {
  const quantity = slot.position?.position.quantity;
  if (quantity === undefined || !quantity.isNegative() || annualRate === 0 || days <= 0 || Number.isNaN(slot.mark)) return ZERO;
  const fee = quantity
    .negated()
    .times(markOf(slot))
    .times(annualRate)
    .times(days)
    .dividedBy(365)
    .toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
  slot.ledger.cash = slot.ledger.cash.minus(fee);
  refreshFloats(slot.ledger);
  return fee;
}
