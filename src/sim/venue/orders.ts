// The venue's order records: one mutable record per order (matching state in floats, money in Decimal),
// and the read-only views handed out (VenueOrder for queries, VenueOrderUpdate for pushes).
import { ZERO, type Decimal } from '../../domain/decimal.js';
import type { Order, OrderRequest, OrderUpdate } from '../../domain/order.js';
import type { OrderStatus } from '../../domain/order-status.js';
import type { OrderType, OutsideRth, Side, TimeInForce, TriggerStatus } from '../../domain/order-types.js';
import { currencyOf, marketOf, type Market, type SecuritySymbol } from '../../domain/symbol.js';
import { NO_FEES, type FeeBreakdown, type FeeItem } from './fees.js';
import { isTriggeredType } from './order-kinds.js';

/** One line of an order's history: a status change, or a fill (its own price and quantity). */
export interface OrderHistoryEntry {
  readonly price: Decimal | undefined;
  readonly quantity: Decimal;
  readonly status: OrderStatus;
  readonly message: string;
  readonly time: number;
}

export interface OrderCharges {
  readonly total: Decimal;
  readonly currency: string;
  readonly items: readonly FeeItem[];
}

/** Fields the service reports beyond the domain Order. */
interface VenueOrderExtras {
  /** Price of the latest fill. */
  readonly lastDone: Decimal | undefined;
  readonly triggerAt: number | undefined;
  readonly limitOffset: Decimal | undefined;
  readonly trailingAmount: Decimal | undefined;
  readonly trailingPercent: Decimal | undefined;
  /** Fees charged to the order so far. */
  readonly fees: Decimal;
}

export interface VenueOrder extends Order, VenueOrderExtras {
  readonly history: readonly OrderHistoryEntry[];
  readonly charges: OrderCharges;
}

export interface VenueOrderUpdate extends OrderUpdate, VenueOrderExtras {
  /** Fee of the fill this update reports. */
  readonly lastFee: Decimal | undefined;
}

export type OrderUpdateListener = (update: VenueOrderUpdate) => void;

export interface OrderRecord {
  readonly orderId: string;
  readonly symbol: SecuritySymbol;
  readonly market: Market;
  readonly currency: string;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
  readonly expireDate: string | undefined;
  readonly outsideRth: OutsideRth | undefined;
  remark: string;
  quantity: Decimal;
  executedQuantity: Decimal;
  /** Σ quantity × price of the fills. */
  executedValue: Decimal;
  price: Decimal | undefined;
  triggerPrice: Decimal | undefined;
  limitOffset: Decimal | undefined;
  trailingAmount: Decimal | undefined;
  trailingPercent: Decimal | undefined;
  status: OrderStatus;
  message: string;
  triggerStatus: TriggerStatus | undefined;
  readonly submittedAt: number;
  updatedAt: number;
  triggerAt: number | undefined;
  lastDone: Decimal | undefined;
  fees: FeeBreakdown;
  readonly history: OrderHistoryEntry[];

  // Matching state, in floats so a bar is checked without decimal work. NaN means "none".
  limit: number;
  trigger: number;
  /** +1: triggers when the price rises to the trigger; -1: when it falls to it. */
  triggerDirection: number;
  triggered: boolean;
  /** Best price seen since submission, for trailing stops. */
  trailExtreme: number;
  /** First instant (UTC ms) at which the order is expired; Infinity while unknown or good till cancelled. */
  expiresAt: number;

  // What the open remainder holds back: cash (buys), margin, and held shares (sells).
  /** Part of the order that opens or extends a position (the rest closes one). */
  openingQuantity: Decimal;
  /** Price the reservations are computed at: the limit, the trigger, or the mark at submission. */
  referencePrice: Decimal;
  cashReserve: Decimal;
  marginReserve: Decimal;
  positionReserve: Decimal;
}

export function remainingOf(record: OrderRecord): Decimal {
  return record.quantity.minus(record.executedQuantity);
}

function averagePrice(record: OrderRecord): Decimal | undefined {
  return record.executedQuantity.isZero() ? undefined : record.executedValue.dividedBy(record.executedQuantity);
}

function orderFields(record: OrderRecord, stockName: string): Order & VenueOrderExtras {
  return {
    orderId: record.orderId,
    status: record.status,
    symbol: record.symbol,
    stockName,
    side: record.side,
    orderType: record.orderType,
    quantity: record.quantity,
    executedQuantity: record.executedQuantity,
    price: record.price,
    executedPrice: averagePrice(record),
    triggerPrice: record.triggerPrice,
    timeInForce: record.timeInForce,
    expireDate: record.expireDate,
    outsideRth: record.outsideRth,
    currency: record.currency,
    remark: record.remark,
    message: record.message,
    tag: 'Normal',
    triggerStatus: record.triggerStatus,
    submittedAt: record.submittedAt,
    updatedAt: record.updatedAt,
    lastDone: record.lastDone,
    triggerAt: record.triggerAt,
    limitOffset: record.limitOffset,
    trailingAmount: record.trailingAmount,
    trailingPercent: record.trailingPercent,
    fees: record.fees.total,
  };
}

export function orderView(record: OrderRecord, stockName: string): VenueOrder {
  return Object.assign(orderFields(record, stockName), {
    history: record.history.slice(),
    charges: { total: record.fees.total, currency: record.currency, items: record.fees.items },
  });
}

export interface FillReport {
  readonly quantity: Decimal;
  readonly price: Decimal;
  readonly fee: Decimal;
}

export function updateView(record: OrderRecord, stockName: string, accountNo: string, fill: FillReport | undefined): VenueOrderUpdate {
  return Object.assign(orderFields(record, stockName), { lastShare: fill?.quantity, lastPrice: fill?.price, lastFee: fill?.fee, accountNo });
}

/** A new order record in NotReported, before validation. */
export function newOrderRecord(orderId: string, request: OrderRequest, now: number): OrderRecord {
  const market = marketOf(request.symbol);
  return {
    orderId,
    symbol: request.symbol,
    market,
    currency: currencyOf(market),
    side: request.side,
    orderType: request.orderType,
    timeInForce: request.timeInForce,
    expireDate: request.expireDate,
    outsideRth: request.outsideRth,
    remark: request.remark ?? '',
    quantity: request.quantity,
    executedQuantity: ZERO,
    executedValue: ZERO,
    price: request.price,
    triggerPrice: request.triggerPrice,
    limitOffset: request.limitOffset,
    trailingAmount: request.trailingAmount,
    trailingPercent: request.trailingPercent,
    status: 'NotReported',
    message: '',
    triggerStatus: isTriggeredType(request.orderType) ? 'ACTIVE' : 'NOT_USED',
    submittedAt: now,
    updatedAt: now,
    triggerAt: undefined,
    lastDone: undefined,
    fees: NO_FEES,
    history: [],
    limit: Number.NaN,
    trigger: Number.NaN,
    triggerDirection: 0,
    triggered: false,
    trailExtreme: Number.NaN,
    expiresAt: Number.POSITIVE_INFINITY,
    openingQuantity: ZERO,
    referencePrice: ZERO,
    cashReserve: ZERO,
    marginReserve: ZERO,
    positionReserve: ZERO,
  };
}
