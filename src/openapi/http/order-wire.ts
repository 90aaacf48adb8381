// The wire form of an order (PROTOCOL.md §4 "Order", and the detail's history and charges as the official SDK
// types them: OrderDetail / OrderHistoryDetail / OrderChargeDetail) mapped to the domain Order.
import { z } from 'zod';
import type { Decimal } from '../../domain/decimal.js';
import type { Order } from '../../domain/order.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import { ORDER_STATUSES } from '../../domain/order-status.js';
import { ORDER_TYPES, OUTSIDE_RTH, SIDES, TIME_IN_FORCE, TRIGGER_STATUSES } from '../../domain/order-types.js';
import type { OrderDetail } from './types.js';
import {
  choice,
  decimal,
  decimalEmptyIsZero,
  optionalChoice,
  optionalDecimal,
  optionalDecimalZeroIsNone,
  optionalSeconds,
  requiredText,
  seconds,
  securitySymbol,
  text,
} from './wire.js';

/** Fields the runtime cannot do without are required; the rest default, as older accounts omit some. */
export const wireOrder = z.object({
  order_id: requiredText,
  status: choice(ORDER_STATUSES),
  stock_name: text,
  quantity: decimal,
  executed_quantity: decimalEmptyIsZero.prefault('0'),
  price: optionalDecimal,
  executed_price: optionalDecimalZeroIsNone,
  submitted_at: seconds,
  side: choice(SIDES),
  symbol: securitySymbol,
  order_type: choice(ORDER_TYPES),
  last_done: optionalDecimal,
  trigger_price: optionalDecimal,
  msg: text,
  tag: text,
  time_in_force: choice(TIME_IN_FORCE),
  expire_date: text,
  updated_at: optionalSeconds,
  trigger_at: optionalSeconds,
  trailing_amount: optionalDecimal,
  trailing_percent: optionalDecimal,
  limit_offset: optionalDecimal,
  trigger_status: optionalChoice(TRIGGER_STATUSES),
  currency: text,
  outside_rth: optionalChoice(OUTSIDE_RTH),
  remark: text,
});
export type WireOrder = z.output<typeof wireOrder>;

/** A wire Decimal as a domain price (the order detail keeps its own figures as Decimals). */
function priceOf(value: Decimal | undefined): Price | undefined {
  return value === undefined ? undefined : Price.of(value.toFixed());
}

export function toOrder(row: WireOrder): Order {
  return {
    orderId: row.order_id,
    status: row.status,
    symbol: row.symbol,
    stockName: row.stock_name,
    side: row.side,
    orderType: row.order_type,
    quantity: Quantity.of(row.quantity.toFixed()),
    executedQuantity: Quantity.of(row.executed_quantity.toFixed()),
    price: priceOf(row.price),
    executedPrice: priceOf(row.executed_price),
    triggerPrice: priceOf(row.trigger_price),
    timeInForce: row.time_in_force,
    expireDate: row.expire_date === '' ? undefined : row.expire_date,
    outsideRth: row.outside_rth,
    currency: row.currency,
    remark: row.remark,
    message: row.msg,
    tag: row.tag,
    triggerStatus: row.trigger_status,
    submittedAt: row.submitted_at,
    updatedAt: row.updated_at ?? row.submitted_at,
  };
}

const historyEntry = z.object({
  price: decimalEmptyIsZero,
  quantity: decimalEmptyIsZero,
  status: choice(ORDER_STATUSES),
  msg: text,
  time: seconds,
});
const chargeFee = z.object({ code: text, name: text, amount: decimal, currency: text });
const chargeItem = z.object({ code: text, name: text, fees: z.array(chargeFee).default([]) });
const chargeDetail = z.object({ total_amount: decimal, currency: text, items: z.array(chargeItem).default([]) });

export const wireOrderDetail = wireOrder.extend({
  history: z.array(historyEntry).default([]),
  charge_detail: chargeDetail.optional(),
  free_status: text,
  free_amount: optionalDecimal,
  free_currency: text,
  deductions_status: text,
  deductions_amount: optionalDecimal,
  deductions_currency: text,
  platform_deducted_status: text,
  platform_deducted_amount: optionalDecimal,
  platform_deducted_currency: text,
});

export function toOrderDetail(row: z.output<typeof wireOrderDetail>): OrderDetail {
  return {
    ...toOrder(row),
    lastDone: row.last_done,
    limitOffset: row.limit_offset,
    trailingAmount: row.trailing_amount,
    trailingPercent: row.trailing_percent,
    triggerAt: row.trigger_at,
    history: row.history.map((entry) => ({
      price: entry.price,
      quantity: entry.quantity,
      status: entry.status,
      message: entry.msg,
      time: entry.time,
    })),
    chargeDetail:
      row.charge_detail === undefined
        ? undefined
        : {
            totalAmount: row.charge_detail.total_amount,
            currency: row.charge_detail.currency,
            items: row.charge_detail.items.map((item) => ({ code: item.code, name: item.name, fees: item.fees })),
          },
    commissionFree: { status: row.free_status, amount: row.free_amount, currency: row.free_currency },
    deductions: { status: row.deductions_status, amount: row.deductions_amount, currency: row.deductions_currency },
    platformDeducted: {
      status: row.platform_deducted_status,
      amount: row.platform_deducted_amount,
      currency: row.platform_deducted_currency,
    },
  };
}
