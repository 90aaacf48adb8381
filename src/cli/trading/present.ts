// Output helpers shared by the trading commands: --json prints the data, people get tables and short lines.
import type { Decimal } from '../../domain/decimal.js';
import type { FixedPoint } from '../../domain/fixed-point.js';
import type { Order } from '../../domain/order.js';
import { printJson, printTable } from '../output.js';
import type { GlobalFlags } from './session.js';

/** Prints `data` as JSON with --json, else runs the human rendering. */
export function present<T>(flags: GlobalFlags, data: T, human: (data: T) => void): void {
  if (flags.json) printJson(data);
  else human(data);
}

export function line(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** A time in UTC, to the second: 2024-05-04 06:14:57Z. */
export function time(epochMs: number | undefined): string {
  return epochMs === undefined
    ? ''
    : new Date(epochMs)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d{3}Z$/, 'Z');
}

export function decimal(value: Decimal | FixedPoint | undefined): string {
  return value === undefined ? '' : value.toFixed();
}

export function printOrders(orders: readonly Order[]): void {
  if (orders.length === 0) {
    line('no orders');
    return;
  }
  printTable(
    ['ORDER ID', 'SYMBOL', 'SIDE', 'TYPE', 'QTY', 'PRICE', 'FILLED', 'AVG PRICE', 'STATUS', 'TIF', 'SUBMITTED', 'REMARK'],
    orders.map((order) => [
      order.orderId,
      order.symbol,
      order.side,
      order.orderType,
      decimal(order.quantity),
      decimal(order.price),
      decimal(order.executedQuantity),
      decimal(order.executedPrice),
      order.status,
      order.timeInForce,
      time(order.submittedAt),
      order.remark,
    ]),
  );
}

/** Two aligned columns: label and value. */
export function printFields(fields: readonly (readonly [string, unknown])[]): void {
  const width = Math.max(...fields.map(([label]) => label.length));
  for (const [label, value] of fields)
    line(`${label.padEnd(width)}  ${value === undefined || value === null ? '' : String(value)}`.trimEnd());
}
