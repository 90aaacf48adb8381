// The invariants every fault test checks: each order at the simulator is in the journal once with its order
// id and final state, the journal's fills add up to the simulator's executions order by order, and the
// runtime's, the journal's and the simulator's positions agree.
import { expect } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.js';
import type { SecuritySymbol } from '../../../src/domain/symbol.js';
import type { PaperHarness } from './paper-harness.js';

const ZERO = new Decimal(0);

interface OrderRow {
  readonly client_order_id: string;
  readonly order_id: string | null;
  readonly status: string;
  readonly executed_quantity: string;
}

export function expectConsistent(harness: PaperHarness, symbol: SecuritySymbol): void {
  const venueOrders = harness.sim.venue.orders();
  const remarks = venueOrders.map((order) => order.remark);
  expect(new Set(remarks).size, 'no order was sent twice').toBe(remarks.length);
  const placed = harness.journal<OrderRow>('SELECT * FROM orders WHERE order_id IS NOT NULL ORDER BY order_id');
  expect(placed.map((row) => [row.client_order_id, row.order_id, row.status, row.executed_quantity])).toEqual(
    [...venueOrders]
      .sort((a, b) => a.orderId.localeCompare(b.orderId))
      .map((order) => [order.remark, order.orderId, order.status, order.executedQuantity.toFixed()]),
  );
  // A fill is the growth of an order's executed quantity: two executions seen in one report are one fill.
  const journaled = totalsByOrder(
    harness.journal<{ order_id: string; quantity: string; price: string }>('SELECT order_id, quantity, price FROM fills'),
  );
  const executed = totalsByOrder(
    harness.sim.venue
      .executions()
      .map((fill) => ({ order_id: fill.orderId, quantity: fill.quantity.toFixed(), price: fill.price.toFixed() })),
  );
  expect([...journaled.keys()].sort(), 'orders with fills').toEqual([...executed.keys()].sort());
  for (const [orderId, total] of executed) {
    const mine = journaled.get(orderId)!;
    expect(mine.quantity.toFixed(), `filled quantity of ${orderId}`).toBe(total.quantity.toFixed());
    expect(mine.value.minus(total.value).abs().lte(0.01), `traded value of ${orderId}`).toBe(true);
  }
  const held = harness.sim.venue.positions([symbol])[0]?.quantity.toFixed() ?? '0';
  expect(harness.session.positions.quantity(symbol).toFixed(), 'runtime position').toBe(held);
  const position = harness.journal<{ quantity: string }>(`SELECT quantity FROM positions WHERE symbol = '${symbol}'`)[0]?.quantity ?? '0';
  expect(position, 'journal position').toBe(held);
}

function totalsByOrder(
  rows: readonly { order_id: string; quantity: string; price: string }[],
): Map<string, { quantity: Decimal; value: Decimal }> {
  const totals = new Map<string, { quantity: Decimal; value: Decimal }>();
  for (const row of rows) {
    const total = totals.get(row.order_id) ?? { quantity: ZERO, value: ZERO };
    const quantity = new Decimal(row.quantity);
    totals.set(row.order_id, { quantity: total.quantity.plus(quantity), value: total.value.plus(quantity.times(row.price)) });
  }
  return totals;
}
