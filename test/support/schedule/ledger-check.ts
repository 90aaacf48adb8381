// The invariants of a schedule's journal against the venue it traded on: every order at the venue carries a
// client order id exactly once and is in the journal once with its order id and final state, and the
// journal's fills add up to the venue's executions order by order. Works on a live Venue (in-process tests)
// and on the simulator's state file (a scheduler process that has exited).
import { sqliteRows } from '../sqlite-rows.js';
import { expect } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.js';
import type { Venue } from '../../../src/sim/venue/index.js';
import { Quantity } from '../../../src/domain/index.js';

const ZERO = new Decimal(0);

export interface VenueLedger {
  readonly orders: readonly {
    readonly orderId: string;
    readonly remark: string;
    readonly status: string;
    readonly executedQuantity: string;
  }[];
  readonly executions: readonly { readonly orderId: string; readonly quantity: string; readonly price: string }[];
}

export function ledgerOfVenue(venue: Venue): VenueLedger {
  return {
    orders: venue.orders().map((order) => ({
      orderId: order.orderId,
      remark: order.remark,
      status: order.status,
      executedQuantity: order.executedQuantity.toFixed(),
    })),
    executions: venue
      .executions()
      .map((fill) => ({ orderId: fill.orderId, quantity: fill.quantity.toFixed(), price: fill.price.toFixed() })),
  };
}

/** What a simulator saved in its state file (orders and executions are JSON rows). */
export function ledgerOfStateFile(file: string): VenueLedger {
  const rows = (sql: string): Record<string, string>[] =>
    readRows<{ json: string }>(file, sql).map((row) => JSON.parse(row.json) as Record<string, string>);
  return {
    orders: rows('SELECT json FROM orders').map((order) => ({
      orderId: order['orderId']!,
      remark: order['remark']!,
      status: order['status']!,
      executedQuantity: Quantity.of(order['executedQuantity']!).toFixed(),
    })),
    executions: rows('SELECT json FROM executions ORDER BY seq').map((fill) => ({
      orderId: fill['orderId']!,
      quantity: fill['quantity']!,
      price: fill['price']!,
    })),
  };
}

export const readRows = sqliteRows;

export function expectJournalMatchesVenue(journalFile: string, venue: VenueLedger): void {
  const remarks = venue.orders.map((order) => order.remark);
  expect(
    remarks.every((remark) => remark !== ''),
    'every venue order carries a client order id',
  ).toBe(true);
  expect(new Set(remarks).size, 'no client order id at the venue twice').toBe(remarks.length);
  const journal = readRows<{ client_order_id: string; order_id: string | null; status: string; executed_quantity: string }>(
    journalFile,
    'SELECT client_order_id, order_id, status, executed_quantity FROM orders WHERE order_id IS NOT NULL',
  );
  const byOrder = (a: { orderId: string }, b: { orderId: string }): number => a.orderId.localeCompare(b.orderId);
  expect(
    journal
      .map((row) => ({ orderId: row.order_id!, remark: row.client_order_id, status: row.status, executedQuantity: row.executed_quantity }))
      .sort(byOrder),
  ).toEqual([...venue.orders].sort(byOrder));
  const journaled = totals(
    readRows<{ order_id: string; quantity: string; price: string }>(journalFile, 'SELECT order_id, quantity, price FROM fills').map(
      (row) => ({ orderId: row.order_id, quantity: row.quantity, price: row.price }),
    ),
  );
  const executed = totals(venue.executions);
  expect([...journaled.keys()].sort(), 'orders with fills').toEqual([...executed.keys()].sort());
  for (const [orderId, total] of executed) {
    const mine = journaled.get(orderId)!;
    expect(mine.quantity.toFixed(), `filled quantity of ${orderId}`).toBe(total.quantity.toFixed());
    expect(mine.value.minus(total.value).abs().lte(0.01), `traded value of ${orderId}`).toBe(true);
  }
}

// A fill is the growth of an order's executed quantity: two executions seen in one report are one fill.
function totals(rows: readonly { orderId: string; quantity: string; price: string }[]): Map<string, { quantity: Decimal; value: Decimal }> {
  const sums = new Map<string, { quantity: Decimal; value: Decimal }>();
  for (const row of rows) {
    const total = sums.get(row.orderId) ?? { quantity: ZERO, value: ZERO };
    const quantity = new Decimal(row.quantity);
    sums.set(row.orderId, { quantity: total.quantity.plus(quantity), value: total.value.plus(quantity.times(row.price)) });
  }
  return sums;
}
