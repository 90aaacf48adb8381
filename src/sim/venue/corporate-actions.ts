// Corporate actions and carry on the venue's books: cash dividends paid to holders (and charged to short
// holders) on the ex-date, share splits applied to positions, average costs, marks and open orders, and the
// borrow fee a short position pays for each day it is held.
import type { CorporateAction } from '../../domain/corporate-action.js';
import { Fixed } from '../../domain/fixed.js';
import { EXTRA_PLACES } from '../../domain/fixed-raw.js';
import { Money } from '../../domain/money.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import { holdQuantity, markOf, refreshFloats, type SymbolSlot } from './book.js';
import type { OrderRecord } from './orders.js';

export type { CorporateAction };

/** Cash is booked in cents. */
const CASH_PLACES = 2;
const DAYS_PER_YEAR = Fixed.of(365);

/** Pays quantity × perShare into the ledger (a short position pays it); returns the signed amount. */
export function payDividend(slot: SymbolSlot, perShare: Price): Money {
  const ledger = slot.ledger;
  const held = slot.position?.position.quantity ?? Quantity.ZERO;
  if (held.isZero()) return Money.zero(ledger.currency);
  const amount = Money.notional(held, perShare, ledger.currency).roundTo(CASH_PLACES);
  ledger.cash = ledger.cash.plus(amount);
  refreshFloats(ledger);
  return amount;
}

function scaledPrice(price: Price, ratio: Fixed): Price {
  return price.dividedBy(ratio, price.precision + EXTRA_PLACES).normalized();
}

/** What a split did to the account: the cash paid for a fractional share, and the shares added (negative: taken). */
export interface SplitOutcome {
  readonly cashInLieu: Money;
  readonly shares: Quantity;
}

/**
 * Splits the position (average cost ÷ ratio), the mark and the open orders (quantities × ratio, prices ÷
 * ratio). A fractional share a split leaves is paid out in cash at the new mark ("cash in lieu").
 */
export function splitShares(slot: SymbolSlot, ratio: Fixed, reserve: (record: OrderRecord) => void): SplitOutcome {
  const ledger = slot.ledger;
  let cashInLieu = Money.zero(ledger.currency);
  let shares = Quantity.ZERO;
  if (!Number.isNaN(slot.mark)) {
    slot.mark = scaledPrice(markOf(slot), ratio).toNumber();
    slot.markPrice = undefined;
  }
  const held = slot.position;
  if (held !== undefined && !held.position.quantity.isZero()) {
    const exact = held.position.quantity.times(ratio);
    const whole = exact.roundTo(0, 'down');
    const averageCost = scaledPrice(held.position.averageCost, ratio);
    if (!exact.eq(whole) && !Number.isNaN(slot.mark)) {
      cashInLieu = Money.notional(exact.minus(whole), markOf(slot), ledger.currency).roundTo(CASH_PLACES);
      ledger.cash = ledger.cash.plus(cashInLieu);
    }
    shares = whole.minus(held.position.quantity);
    held.position = {
      ...held.position,
      quantity: whole,
      averageCost: whole.isZero() ? Price.ZERO : averageCost,
      cost: Money.notional(whole, averageCost, ledger.currency),
    };
    held.initQuantity = held.initQuantity.times(ratio).roundTo(0, 'down');
    holdQuantity(slot, whole);
    // All of it paid in cash: no longer held (a later fill holds it again, and must not count it twice).
    const index = whole.isZero() ? ledger.held.indexOf(slot) : -1;
    if (index >= 0) ledger.held.splice(index, 1);
  }
  for (const record of slot.resting) {
    record.quantity = record.quantity.times(ratio).roundTo(0, 'floor');
    record.executedQuantity = record.executedQuantity.times(ratio).roundTo(0, 'floor');
    record.openingQuantity = record.openingQuantity.times(ratio).roundTo(0, 'floor');
    if (record.price !== undefined) record.price = scaledPrice(record.price, ratio);
    if (record.triggerPrice !== undefined) record.triggerPrice = scaledPrice(record.triggerPrice, ratio);
    if (record.trailingAmount !== undefined) record.trailingAmount = scaledPrice(record.trailingAmount, ratio);
    record.limit = record.price === undefined ? Number.NaN : record.price.toNumber();
    record.trigger = record.triggerPrice === undefined ? Number.NaN : record.triggerPrice.toNumber();
    if (!Number.isNaN(record.trailExtreme)) record.trailExtreme /= ratio.toNumber();
    record.referencePrice = scaledPrice(record.referencePrice, ratio);
    reserve(record);
  }
  refreshFloats(ledger);
  return { cashInLieu, shares };
}

/** Charges a short position `days` days of borrow fee at `annualRate` on its value at the mark; returns the fee. */
export function chargeBorrowFee(slot: SymbolSlot, annualRate: number, days: number): Money {
  const ledger = slot.ledger;
  const quantity = slot.position?.position.quantity;
  if (quantity === undefined || !quantity.isNegative() || annualRate === 0 || days <= 0 || Number.isNaN(slot.mark))
    return Money.zero(ledger.currency);
  const fee = Money.notional(quantity.negated(), markOf(slot), ledger.currency)
    .times(Fixed.of(annualRate))
    .times(Fixed.of(days))
    .dividedBy(DAYS_PER_YEAR, CASH_PLACES);
  ledger.cash = ledger.cash.minus(fee);
  refreshFloats(ledger);
  return fee;
}
