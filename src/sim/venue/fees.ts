// Fee models: what an order costs for the quantity and value it has executed so far. A fill is charged the
// growth of its order's fees, so per-order minimums and round-ups apply once per order, however it fills.
import { Fixed } from '../../domain/fixed.js';
import { FixedPointError } from '../../domain/fixed-raw.js';
import { Money } from '../../domain/money.js';
import type { Side } from '../../domain/order-types.js';
import type { Quantity } from '../../domain/quantity.js';
import type { Market, SecuritySymbol } from '../../domain/symbol.js';

/** The cumulative execution of one order. */
export interface OrderExecution {
  readonly symbol: SecuritySymbol;
  readonly market: Market;
  readonly side: Side;
  readonly quantity: Quantity;
  /** Σ quantity × price over the order's fills, in the order's currency. */
  readonly value: Money;
}

export interface FeeItem {
  readonly code: string;
  readonly name: string;
  readonly amount: Money;
}

export interface FeeBreakdown {
  readonly total: Money;
  readonly items: readonly FeeItem[];
}

export interface FeeModel {
  readonly name: string;
  /** Fees of an order that executed `execution` in total (zero for zero quantity), in its value's currency. */
  orderFees(execution: OrderExecution): FeeBreakdown;
}

const noFeeBreakdowns = new Map<string, FeeBreakdown>();

/** No fees, in `currency` (one shared breakdown per currency). */
export function noFeesIn(currency: string): FeeBreakdown {
  let breakdown = noFeeBreakdowns.get(currency);
  if (breakdown === undefined) {
    breakdown = { total: Money.zero(currency), items: [] };
    noFeeBreakdowns.set(currency, breakdown);
  }
  return breakdown;
}

export const noFees: FeeModel = { name: 'none', orderFees: (execution) => noFeesIn(execution.value.currency) };

/** A commission of `rate` × traded value on every fill (0.001 = 0.1 %), unrounded. */
export function commissionRate(rate: number | string | Fixed): FeeModel {
  const factor = Fixed.of(rate, 'commission rate');
  if (factor.isNegative()) throw new RangeError(`commission rate ${factor.toString()} must be a non-negative number`);
  return {
    name: `commission ${factor.toString()}`,
    orderFees(execution) {
      if (execution.quantity.isZero()) return noFeesIn(execution.value.currency);
      const amount = commissionOn(execution.value, factor);
      return { total: amount, items: [{ code: 'commission', name: 'Commission', amount }] };
    },
  };
}

/** value × rate, exactly; a product beyond the places a value keeps is refused naming the rate and the value. */
function commissionOn(value: Money, rate: Fixed): Money {
  try {
    return value.times(rate);
  } catch (error) {
    if (!(error instanceof FixedPointError)) throw error;
    throw new FixedPointError(
      error.code,
      `commission at the rate ${rate.toString()} of an order value of ${value.toString()} ${value.currency}: ${error.message}`,
    );
  }
}
