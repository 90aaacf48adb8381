// How an order changes exposure: the part that reduces the current position and the part that opens
// (or adds to) one. Only the opening part needs buying power, margin or position room.
import { ZERO, type Decimal, type Side } from '../domain/index.js';
import { abs, compare, isPositive, minus } from '../domain/decimal-shortcuts.js';

export interface ExposureChange {
  readonly reducing: Decimal;
  readonly opening: Decimal;
}

export function exposureChange(position: Decimal, side: Side, quantity: Decimal): ExposureChange {
  const opposes = side === 'Buy' ? position.isNegative() : isPositive(position);
  if (!opposes) return { reducing: ZERO, opening: quantity };
  // Decimal.min(|position|, quantity), which takes the second of two equal positive values.
  const size = abs(position);
  const order = compare(size, quantity);
  const reducing = order === 1 || (order === 0 && size.s === 1) ? quantity : size;
  return { reducing, opening: reducing === quantity ? ZERO : minus(quantity, reducing) };
}

/** Signed quantity of an order: positive for buys, negative for sells. */
export function signedQuantity(side: Side, quantity: Decimal): Decimal {
  return side === 'Buy' ? quantity : quantity.negated();
}
