// The trade push `order_changed_lb` (PROTOCOL.md §5) → a domain OrderUpdate. Validated loosely (strings or
// numbers, unknown keys ignored); a push missing a field is rejected naming it, as the official SDK drops it.
import { z } from 'zod';
import { isBlank } from '../../domain/decimal.js';
import { Fixed } from '../../domain/fixed.js';
import type { FixedPoint } from '../../domain/fixed-point.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import { InvalidInputError } from '../../domain/errors.js';
import type { OrderUpdate } from '../../domain/order.js';
import { ORDER_STATUSES } from '../../domain/order-status.js';
import { ORDER_TYPES, OUTSIDE_RTH, parseChoice, SIDES, TIME_IN_FORCE, TRIGGER_STATUSES } from '../../domain/order-types.js';
import { parseSymbol } from '../../domain/symbol.js';

const text = z.union([z.string(), z.number()]).transform(String);

const ORDER_CHANGED = z.object({
  side: text,
  stock_name: text,
  submitted_quantity: text,
  symbol: text,
  order_type: text,
  submitted_price: text,
  executed_quantity: text,
  executed_price: text,
  order_id: text,
  currency: text,
  status: text,
  submitted_at: text,
  updated_at: text,
  trigger_price: text,
  msg: text,
  tag: text,
  trigger_status: text,
  trigger_at: text,
  trailing_amount: text,
  trailing_percent: text,
  limit_offset: text,
  account_no: text,
  last_share: text,
  last_price: text,
  remark: text,
  // Not part of the documented push; read when a server sends them.
  time_in_force: text.optional(),
  expire_date: text.optional(),
  outside_rth: text.optional(),
});

const PUSH = z.object({ event: z.string(), data: z.unknown() });

/** The domain update plus the conditional-order figures the push carries beyond the domain Order. */
export interface PushedOrderUpdate extends OrderUpdate {
  /** Epoch ms the trigger fired; undefined when it has not. */
  readonly triggerAt: number | undefined;
  readonly trailingAmount: Price | undefined;
  readonly trailingPercent: Fixed | undefined;
  readonly limitOffset: Price | undefined;
}

export const ORDER_CHANGED_EVENT = 'order_changed_lb';

/** Reads one notification body (JSON); undefined for events other than order changes. */
export function orderUpdateFromNotification(json: string): PushedOrderUpdate | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new InvalidInputError('order push is not JSON', 'data');
  }
  const push = PUSH.safeParse(raw);
  if (!push.success) throw new InvalidInputError('order push lacks event or data', 'event');
  if (push.data.event !== ORDER_CHANGED_EVENT) return undefined;
  return orderUpdateFromJson(push.data.data);
}

export function orderUpdateFromJson(data: unknown): PushedOrderUpdate {
  const parsed = ORDER_CHANGED.safeParse(data);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(root)');
    throw new InvalidInputError(`order push: missing or invalid ${fields.join(', ')}`, fields[0]);
  }
  const order = parsed.data;
  return {
    orderId: order.order_id,
    status: parseChoice(ORDER_STATUSES, order.status, 'status'),
    symbol: parseSymbol(order.symbol),
    stockName: order.stock_name,
    side: parseChoice(SIDES, order.side, 'side'),
    orderType: parseChoice(ORDER_TYPES, order.order_type, 'order_type'),
    quantity: Quantity.of(order.submitted_quantity, 'submitted_quantity'),
    executedQuantity: Quantity.of(order.executed_quantity, 'executed_quantity'),
    price: nonZero(Price.of, order.submitted_price, 'submitted_price'),
    executedPrice: nonZero(Price.of, order.executed_price, 'executed_price'),
    triggerPrice: nonZero(Price.of, order.trigger_price, 'trigger_price'),
    // The push does not carry time in force; "Day" until the order is reconciled by query.
    timeInForce:
      order.time_in_force === undefined || order.time_in_force === ''
        ? 'Day'
        : parseChoice(TIME_IN_FORCE, order.time_in_force, 'time_in_force'),
    expireDate: order.expire_date === undefined || order.expire_date === '' ? undefined : order.expire_date,
    outsideRth:
      order.outside_rth === undefined || order.outside_rth === '' ? undefined : parseChoice(OUTSIDE_RTH, order.outside_rth, 'outside_rth'),
    currency: order.currency,
    remark: order.remark,
    message: order.msg,
    tag: order.tag,
    triggerStatus: order.trigger_status === '' ? undefined : parseChoice(TRIGGER_STATUSES, order.trigger_status, 'trigger_status'),
    submittedAt: epochMs(order.submitted_at, 'submitted_at'),
    updatedAt: epochMs(order.updated_at, 'updated_at'),
    lastShare: nonZero(Quantity.of, order.last_share, 'last_share'),
    lastPrice: nonZero(Price.of, order.last_price, 'last_price'),
    accountNo: order.account_no,
    triggerAt: order.trigger_at === '' || order.trigger_at === '0' ? undefined : epochMs(order.trigger_at, 'trigger_at'),
    trailingAmount: nonZero(Price.of, order.trailing_amount, 'trailing_amount'),
    trailingPercent: nonZero(Fixed.of, order.trailing_percent, 'trailing_percent'),
    limitOffset: nonZero(Price.of, order.limit_offset, 'limit_offset'),
  };
}

/** "" and "0" mean "none" in order pushes. */
function nonZero<T extends FixedPoint>(make: (text: string, field: string) => T, value: string, field: string): T | undefined {
  if (isBlank(value)) return undefined;
  const read = make(value, field);
  return read.isZero() ? undefined : read;
}

/** Unix seconds as a string → epoch ms. */
function epochMs(value: string, field: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0) throw new InvalidInputError(`order push: ${field} "${value}" is not a unix time`, field);
  return Math.round(seconds * 1000);
}
