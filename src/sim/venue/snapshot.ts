// The venue's whole state as plain JSON-able data (decimals as strings, missing floats as null), and the
// strict schema a persisted snapshot is checked against before it is loaded.
import { z } from 'zod';
import type { Fill } from '../../domain/fill.js';
import { Fixed } from '../../domain/fixed.js';
import type { FixedPoint } from '../../domain/fixed-point.js';
import { Money } from '../../domain/money.js';
import { ORDER_STATUSES } from '../../domain/order-status.js';
import { ORDER_TYPES, OUTSIDE_RTH, SIDES, TIME_IN_FORCE, TRIGGER_STATUSES } from '../../domain/order-types.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import { currencyOf, marketOf, parseSymbol } from '../../domain/symbol.js';
import { parseStrict } from './config-errors.js';
import type { OrderRecord } from './orders.js';
import type { CashFlow } from './cash-flows.js';

const decimal = z.string().regex(/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i, 'must be a decimal string');
const optionalDecimal = decimal.nullable();
const float = z.number().nullable();
const symbol = z.string().transform((text) => parseSymbol(text));

const historySchema = z.strictObject({
  price: optionalDecimal,
  quantity: decimal,
  status: z.enum(ORDER_STATUSES),
  message: z.string(),
  time: z.number(),
});
const feeItemSchema = z.strictObject({ code: z.string(), name: z.string(), amount: decimal });

const orderSchema = z.strictObject({
  orderId: z.string(),
  symbol,
  currency: z.string(),
  side: z.enum(SIDES),
  orderType: z.enum(ORDER_TYPES),
  timeInForce: z.enum(TIME_IN_FORCE),
  expireDate: z.string().nullable(),
  outsideRth: z.enum(OUTSIDE_RTH).nullable(),
  remark: z.string(),
  quantity: decimal,
  executedQuantity: decimal,
  executedValue: decimal,
  price: optionalDecimal,
  triggerPrice: optionalDecimal,
  limitOffset: optionalDecimal,
  trailingAmount: optionalDecimal,
  trailingPercent: optionalDecimal,
  status: z.enum(ORDER_STATUSES),
  message: z.string(),
  triggerStatus: z.enum(TRIGGER_STATUSES).nullable(),
  submittedAt: z.number(),
  updatedAt: z.number(),
  triggerAt: float,
  lastDone: optionalDecimal,
  fees: z.strictObject({ total: decimal, items: z.array(feeItemSchema) }),
  history: z.array(historySchema),
  limit: float,
  trigger: float,
  triggerDirection: z.number(),
  triggered: z.boolean(),
  trailExtreme: float,
  expiresAt: float,
  openingQuantity: decimal,
  referencePrice: decimal,
});

const fillSchema = z.strictObject({
  fillId: z.string(),
  orderId: z.string(),
  symbol,
  side: z.enum(SIDES),
  quantity: decimal,
  price: decimal,
  time: z.number(),
  commission: decimal,
});

const carryFlowSchema = z.strictObject({
  flowId: z.string(),
  name: z.string(),
  direction: z.enum(['in', 'out']),
  kind: z.enum(['cash', 'stock']),
  amount: decimal,
  currency: z.string(),
  time: z.number(),
  symbol,
  description: z.string(),
});

export const venueSnapshotSchema = z.strictObject({
  version: z.literal(1),
  nextOrderNumber: z.number().int().min(1),
  faults: z.record(z.string(), z.number()),
  ledgers: z.array(z.strictObject({ currency: z.string(), cash: decimal })),
  slots: z.array(
    z.strictObject({
      symbol,
      mark: float,
      time: float,
      volume: z.number(),
      consumed: z.number(),
      /** Absent in snapshots written before ticks shared their bar's volume. */
      barStart: float.optional(),
      position: z
        .strictObject({ quantity: decimal, averageCost: decimal, realizedPnl: decimal, initQuantity: decimal, dayKey: z.number().int() })
        .nullable(),
    }),
  ),
  orders: z.array(orderSchema),
  executions: z.array(fillSchema),
  /** Absent in snapshots saved before the venue booked carry. */
  carryFlows: z.array(carryFlowSchema).default([]),
});

export type VenueSnapshot = z.input<typeof venueSnapshotSchema>;
export type ParsedSnapshot = z.output<typeof venueSnapshotSchema>;
type OrderJson = z.output<typeof orderSchema>;

export function parseSnapshot(input: unknown): ParsedSnapshot {
  return parseStrict(venueSnapshotSchema, input, 'snapshot');
}

export const text = (value: FixedPoint): string => value.toString();
const textOrNull = (value: FixedPoint | undefined): string | null => (value === undefined ? null : value.toString());
export const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);
const priceOrUndefined = (value: string | null): Price | undefined => (value === null ? undefined : Price.of(value));

export function orderToJson(record: OrderRecord): VenueSnapshot['orders'][number] {
  return {
    orderId: record.orderId,
    symbol: record.symbol,
    currency: record.currency,
    side: record.side,
    orderType: record.orderType,
    timeInForce: record.timeInForce,
    expireDate: record.expireDate ?? null,
    outsideRth: record.outsideRth ?? null,
    remark: record.remark,
    quantity: text(record.quantity),
    executedQuantity: text(record.executedQuantity),
    executedValue: text(record.executedValue),
    price: textOrNull(record.price),
    triggerPrice: textOrNull(record.triggerPrice),
    limitOffset: textOrNull(record.limitOffset),
    trailingAmount: textOrNull(record.trailingAmount),
    trailingPercent: textOrNull(record.trailingPercent),
    status: record.status,
    message: record.message,
    triggerStatus: record.triggerStatus ?? null,
    submittedAt: record.submittedAt,
    updatedAt: record.updatedAt,
    triggerAt: record.triggerAt ?? null,
    lastDone: textOrNull(record.lastDone),
    fees: {
      total: text(record.fees.total),
      items: record.fees.items.map((item) => ({ code: item.code, name: item.name, amount: text(item.amount) })),
    },
    history: record.history.map((entry) => ({ ...entry, price: textOrNull(entry.price), quantity: text(entry.quantity) })),
    limit: finiteOrNull(record.limit),
    trigger: finiteOrNull(record.trigger),
    triggerDirection: record.triggerDirection,
    triggered: record.triggered,
    trailExtreme: finiteOrNull(record.trailExtreme),
    expiresAt: finiteOrNull(record.expiresAt),
    openingQuantity: text(record.openingQuantity),
    referencePrice: text(record.referencePrice),
  };
}

/** An order record from its snapshot; reservations start at zero and are re-made by the venue. */
export function orderFromJson(json: OrderJson): OrderRecord {
  const money = (amount: string): Money => Money.of(amount, json.currency);
  const zero = Money.zero(json.currency);
  return {
    ...json,
    market: marketOf(json.symbol),
    expireDate: json.expireDate ?? undefined,
    outsideRth: json.outsideRth ?? undefined,
    quantity: Quantity.of(json.quantity),
    executedQuantity: Quantity.of(json.executedQuantity),
    executedValue: money(json.executedValue),
    price: priceOrUndefined(json.price),
    triggerPrice: priceOrUndefined(json.triggerPrice),
    limitOffset: priceOrUndefined(json.limitOffset),
    trailingAmount: priceOrUndefined(json.trailingAmount),
    trailingPercent: json.trailingPercent === null ? undefined : Fixed.of(json.trailingPercent),
    triggerStatus: json.triggerStatus ?? undefined,
    triggerAt: json.triggerAt ?? undefined,
    lastDone: priceOrUndefined(json.lastDone),
    fees: { total: money(json.fees.total), items: json.fees.items.map((item) => ({ ...item, amount: money(item.amount) })) },
    history: json.history.map((entry) => ({ ...entry, price: priceOrUndefined(entry.price), quantity: Quantity.of(entry.quantity) })),
    average: undefined,
    limit: json.limit ?? Number.NaN,
    trigger: json.trigger ?? Number.NaN,
    trailExtreme: json.trailExtreme ?? Number.NaN,
    expiresAt: json.expiresAt ?? Number.POSITIVE_INFINITY,
    openingQuantity: Quantity.of(json.openingQuantity),
    referencePrice: Price.of(json.referencePrice),
    cashReserve: zero,
    marginReserve: zero,
    positionReserve: Quantity.ZERO,
    feeReserve: zero,
  };
}

export function fillToJson(fill: Fill): VenueSnapshot['executions'][number] {
  return { ...fill, quantity: text(fill.quantity), price: text(fill.price), commission: text(fill.commission) };
}

export function fillFromJson(json: z.output<typeof fillSchema>): Fill {
  return {
    ...json,
    quantity: Quantity.of(json.quantity),
    price: Price.of(json.price),
    commission: Money.of(json.commission, currencyOf(marketOf(json.symbol))),
  };
}

export function carryFlowToJson(flow: CashFlow): z.input<typeof carryFlowSchema> {
  return { ...flow, amount: text(flow.amount) };
}

export function carryFlowFromJson(json: z.output<typeof carryFlowSchema>): CashFlow {
  return { ...json, amount: json.kind === 'cash' ? Money.of(json.amount, json.currency) : Quantity.of(json.amount) };
}
