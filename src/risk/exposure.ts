// How an order changes exposure: the part that reduces the current position and the part that opens
// (or adds to) one. Only the opening part needs buying power, margin or position room.
import { Decimal, ZERO, type Side } from '../domain/index.js';

export interface ExposureChange {
  readonly reducing: Decimal;
  readonly opening: Decimal;
}

export function exposureChange(position: Decimal, side: Side, quantity: Decimal): ExposureChange {
  const opposes = side === 'Buy' ? position.isNegative() : position.gt(0);
  if (!opposes) return { reducing: ZERO, opening: quantity };
  const reducing = Decimal.min(position.abs(), quantity);
  return { reducing, opening: quantity.minus(reducing) };
}

/** Signed quantity of an order: positive for buys, negative for sells. */
export function signedQuantity(side: Side, quantity: Decimal): Decimal {
  return side === 'Buy' ? quantity : quantity.negated();
}
