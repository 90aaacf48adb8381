// Fee models: what an order costs for the quantity and value it has executed so far. A fill is charged the
// growth of its order's fees, so per-order minimums and round-ups apply once per order, however it fills.
import { Decimal, ZERO } from '../../domain/decimal.js';
import type { Side } from '../../domain/order-types.js';
import type { Market, SecuritySymbol } from '../../domain/symbol.js';

/** The cumulative execution of one order. */
export interface OrderExecution {
  readonly symbol: SecuritySymbol;
  readonly market: Market;
  readonly side: Side;
  readonly quantity: Decimal;
  /** Σ quantity × price over the order's fills. */
  readonly value: Decimal;
}

export interface FeeItem {
  readonly code: string;
  readonly name: string;
  readonly amount: Decimal;
}

export interface FeeBreakdown {
  readonly total: Decimal;
  readonly items: readonly FeeItem[];
}

export interface FeeModel {
  readonly name: string;
  /** Fees of an order that executed `execution` in total (zero for zero quantity). */
  orderFees(execution: OrderExecution): FeeBreakdown;
}

export const NO_FEES: FeeBreakdown = { total: ZERO, items: [] };

export const noFees: FeeModel = { name: 'none', orderFees: () => NO_FEES };

/** A commission of `rate` × traded value on every fill (0.001 = 0.1 %), unrounded. */
export function commissionRate(rate: number | Decimal): FeeModel {
  const factor = new Decimal(rate);
  if (factor.isNegative() || !factor.isFinite()) throw new RangeError(`commission rate ${factor.toString()} must be a non-negative number`);
  return {
    name: `commission ${factor.toFixed()}`,
    orderFees(execution) {
      if (execution.quantity.isZero()) return NO_FEES;
      const amount = execution.value.times(factor);
      return { total: amount, items: [{ code: 'commission', name: 'Commission', amount }] };
    },
  };
}
