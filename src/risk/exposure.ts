// How an order changes exposure: the part that reduces the current position and the part that opens
// (or adds to) one. Only the opening part needs buying power, margin or position room.
import { Quantity, type Side } from '../domain/index.js';

export interface ExposureChange {
  readonly reducing: Quantity;
  readonly opening: Quantity;
}

export function exposureChange(position: Quantity, side: Side, quantity: Quantity): ExposureChange {
  const opposes = side === 'Buy' ? position.isNegative() : position.isPositive();
  if (!opposes) return { reducing: Quantity.ZERO, opening: quantity };
  // The smaller of |position| and the quantity (the quantity itself when they are equal).
  const size = position.abs();
  const reducing = size.lt(quantity) ? size : quantity;
  return { reducing, opening: reducing === quantity ? Quantity.ZERO : quantity.minus(reducing) };
}

/** exposureChange's `opening` alone (the risk checks of every order ask only for it). */
export function openingOf(position: Quantity, side: Side, quantity: Quantity): Quantity {
  const opposes = side === 'Buy' ? position.isNegative() : position.isPositive();
  if (!opposes) return quantity;
  const size = position.abs();
  return size.lt(quantity) ? quantity.minus(size) : Quantity.ZERO;
}

/** Signed quantity of an order: positive for buys, negative for sells. */
export function signedQuantity(side: Side, quantity: Quantity): Quantity {
  return side === 'Buy' ? quantity : quantity.negated();
}
