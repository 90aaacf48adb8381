// Venue orders in the service's wire form (PROTOCOL.md §4 Order and order detail, §5 order_changed_lb).
// The official SDK rejects an order or drops a push that lacks any field, so every field is always present:
// decimals and times as strings, "" for none, "0" where the SDK parses a number that means none.
import type { FixedPoint } from '../../domain/fixed-point.js';
import type { FeeItem, VenueOrder, VenueOrderUpdate } from '../venue/index.js';

/** Derived decimals (average prices, margins) keep at most this many places: the SDK's decimals hold 28 digits. */
const PLACES = 10;

export function wireDecimal(value: FixedPoint): string {
  return value.roundTo(PLACES).toString();
}

const optional = (value: FixedPoint | undefined): string => (value === undefined ? '' : wireDecimal(value));
const orZero = (value: FixedPoint | undefined): string => (value === undefined ? '0' : wireDecimal(value));
const seconds = (epochMs: number): string => String(Math.floor(epochMs / 1000));
const optionalSeconds = (epochMs: number | undefined): string => (epochMs === undefined ? '0' : seconds(epochMs));

type CommonFields = Pick<
  VenueOrder,
  | 'orderId'
  | 'status'
  | 'stockName'
  | 'symbol'
  | 'side'
  | 'orderType'
  | 'currency'
  | 'message'
  | 'tag'
  | 'remark'
  | 'triggerStatus'
  | 'submittedAt'
  | 'updatedAt'
>;

function common(order: CommonFields): Record<string, string> {
  return {
    order_id: order.orderId,
    status: order.status,
    stock_name: order.stockName,
    symbol: order.symbol,
    side: order.side,
    order_type: order.orderType,
    currency: order.currency,
    msg: order.message,
    tag: order.tag,
    remark: order.remark,
    trigger_status: order.triggerStatus ?? 'NOT_USED',
    submitted_at: seconds(order.submittedAt),
    updated_at: seconds(order.updatedAt),
  };
}

export function orderJson(order: VenueOrder): Record<string, unknown> {
  return {
    ...common(order),
    quantity: wireDecimal(order.quantity),
    executed_quantity: wireDecimal(order.executedQuantity),
    price: optional(order.price),
    executed_price: orZero(order.executedPrice),
    last_done: optional(order.lastDone),
    trigger_price: optional(order.triggerPrice),
    time_in_force: order.timeInForce,
    expire_date: order.expireDate ?? '',
    trigger_at: optionalSeconds(order.triggerAt),
    trailing_amount: optional(order.trailingAmount),
    trailing_percent: optional(order.trailingPercent),
    limit_offset: optional(order.limitOffset),
    outside_rth: order.outsideRth ?? 'UnknownOutsideRth',
    limit_depth_level: 0,
    trigger_count: 0,
    monitor_price: '',
  };
}

/** Fee codes the broker charges; the rest are exchange and regulator fees ("third-party"). */
const BROKER_FEES = new Set(['commission', 'platform_fee']);

export function orderDetailJson(order: VenueOrder): Record<string, unknown> {
  const fees = (items: readonly FeeItem[]): Record<string, string>[] =>
    items.map((item) => ({ code: item.code, name: item.name, amount: wireDecimal(item.amount), currency: order.currency }));
  const broker = order.charges.items.filter((item) => BROKER_FEES.has(item.code));
  const third = order.charges.items.filter((item) => !BROKER_FEES.has(item.code));
  return {
    ...orderJson(order),
    history: order.history.map((entry) => ({
      price: orZero(entry.price),
      quantity: wireDecimal(entry.quantity),
      status: entry.status,
      msg: entry.message,
      time: seconds(entry.time),
    })),
    charge_detail: {
      total_amount: wireDecimal(order.charges.total),
      currency: order.charges.currency,
      items: [
        { code: 'BROKER_FEES', name: 'Broker fees', fees: fees(broker) },
        { code: 'THIRD_FEES', name: 'Third-party fees', fees: fees(third) },
      ],
    },
    free_status: 'None',
    free_amount: '',
    free_currency: '',
    deductions_status: 'NONE',
    deductions_amount: '',
    deductions_currency: '',
    platform_deducted_status: 'NONE',
    platform_deducted_amount: '',
    platform_deducted_currency: '',
  };
}

/** The `data` of an `order_changed_lb` push, every documented field plus time in force, expiry and session. */
export function orderChangedJson(update: VenueOrderUpdate): Record<string, string> {
  return {
    ...common(update),
    submitted_quantity: wireDecimal(update.quantity),
    submitted_price: orZero(update.price),
    executed_quantity: wireDecimal(update.executedQuantity),
    executed_price: orZero(update.executedPrice),
    trigger_price: optional(update.triggerPrice),
    trigger_at: optionalSeconds(update.triggerAt),
    trailing_amount: optional(update.trailingAmount),
    trailing_percent: optional(update.trailingPercent),
    limit_offset: optional(update.limitOffset),
    account_no: update.accountNo,
    last_share: optional(update.lastShare),
    last_price: optional(update.lastPrice),
    time_in_force: update.timeInForce,
    expire_date: update.expireDate ?? '',
    outside_rth: update.outsideRth ?? '',
  };
}
