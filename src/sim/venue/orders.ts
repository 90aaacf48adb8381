// The venue's order records: one mutable record per order (matching state in floats, values fixed-point),
// and the read-only views handed out (VenueOrder for queries, VenueOrderUpdate for pushes).
import type { Fill } from '../../domain/fill.js';
import type { Fixed } from '../../domain/fixed.js';
import { Money } from '../../domain/money.js';
import type { Order, OrderReport, OrderRequest, OrderUpdate } from '../../domain/order.js';
import type { OrderStatus } from '../../domain/order-status.js';
import type { OrderType, OutsideRth, Side, TimeInForce, TriggerStatus } from '../../domain/order-types.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import { currencyOf, marketOf, type Market, type SecuritySymbol } from '../../domain/symbol.js';
import { noFeesIn, type FeeBreakdown, type FeeItem } from './fees.js';
import { isTriggeredType } from './order-kinds.js';

/** One line of an order's history: a status change, or a fill (its own price and quantity). */
export interface OrderHistoryEntry {
  readonly price: Price | undefined;
  readonly quantity: Quantity;
  readonly status: OrderStatus;
  readonly message: string;
  readonly time: number;
}

export interface OrderCharges {
  readonly total: Money;
  readonly currency: string;
  readonly items: readonly FeeItem[];
}

/** Fields the service reports beyond the domain Order. */
interface VenueOrderExtras {
  /** Price of the latest fill. */
  readonly lastDone: Price | undefined;
  readonly triggerAt: number | undefined;
  readonly limitOffset: Price | undefined;
  readonly trailingAmount: Price | undefined;
  readonly trailingPercent: Fixed | undefined;
  /** Fees charged to the order so far. */
  readonly fees: Money;
}

export interface VenueOrder extends Order, VenueOrderExtras {
  readonly history: readonly OrderHistoryEntry[];
  readonly charges: OrderCharges;
}

export interface VenueOrderUpdate extends OrderUpdate, VenueOrderExtras {
  /** Fee of the fill this update reports. */
  readonly lastFee: Money | undefined;
}

export type OrderUpdateListener = (update: VenueOrderUpdate) => void;

export type OrderReportListener = (report: OrderReport) => void;

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
  quantity: Quantity;
  executedQuantity: Quantity;
  /** Σ quantity × price of the fills. */
  executedValue: Money;
  price: Price | undefined;
  triggerPrice: Price | undefined;
  limitOffset: Price | undefined;
  trailingAmount: Price | undefined;
  trailingPercent: Fixed | undefined;
  status: OrderStatus;
  message: string;
  triggerStatus: TriggerStatus | undefined;
  readonly submittedAt: number;
  updatedAt: number;
  triggerAt: number | undefined;
  lastDone: Price | undefined;
  fees: FeeBreakdown;
  /** Replaced by a one-longer copy on each change: a venue keeps every order, and a pushed-to array would keep 17 slots for its 2 or 3 lines. */
  history: readonly OrderHistoryEntry[];
  /** executedValue ÷ executedQuantity, kept with the two figures it was computed from (every view reports it). */
  average: { readonly price: Price; readonly quantity: Quantity; readonly value: Money } | undefined;

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
  openingQuantity: Quantity;
  /** Price the reservations are computed at: the limit, the trigger, or the mark at submission. */
  referencePrice: Price;
  cashReserve: Money;
  marginReserve: Money;
  positionReserve: Quantity;
  /** The fees its reservation counts on (buys), part of the ledger's frozen fees. */
  feeReserve: Money;
}

export function remainingOf(record: OrderRecord): Quantity {
  return record.quantity.minus(record.executedQuantity);
}

function averagePrice(record: OrderRecord): Price | undefined {
  const { executedQuantity: quantity, executedValue: value } = record;
  if (quantity.isZero()) return undefined;
  const known = record.average;
  if (known !== undefined && known.quantity === quantity && known.value === value) return known.price;
  const price = Price.average(value, quantity);
  record.average = { price, quantity, value };
  return price;
}

/** After an order's first fill its average price is that fill's price: value ÷ quantity gives it back exactly. */
export function rememberFirstAverage(record: OrderRecord, price: Price): void {
  record.average = { price, quantity: record.executedQuantity, value: record.executedValue };
}

/**
 * The fields every view of an order reports. Views are classes so that each is built as one object of a
 * fixed shape (an order update goes out on every change; adding keys to a finished object is slower).
 */
class OrderFields implements Order, VenueOrderExtras {
  readonly orderId: string;
  readonly status: OrderStatus;
  readonly symbol: SecuritySymbol;
  readonly stockName: string;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly quantity: Quantity;
  readonly executedQuantity: Quantity;
  readonly price: Price | undefined;
  readonly executedPrice: Price | undefined;
  readonly triggerPrice: Price | undefined;
  readonly timeInForce: TimeInForce;
  readonly expireDate: string | undefined;
  readonly outsideRth: OutsideRth | undefined;
  readonly currency: string;
  readonly remark: string;
  readonly message: string;
  readonly tag: string;
  readonly triggerStatus: TriggerStatus | undefined;
  readonly submittedAt: number;
  readonly updatedAt: number;
  readonly lastDone: Price | undefined;
  readonly triggerAt: number | undefined;
  readonly limitOffset: Price | undefined;
  readonly trailingAmount: Price | undefined;
  readonly trailingPercent: Fixed | undefined;
  readonly fees: Money;

  constructor(record: OrderRecord, stockName: string) {
    this.orderId = record.orderId;
    this.status = record.status;
    this.symbol = record.symbol;
    this.stockName = stockName;
    this.side = record.side;
    this.orderType = record.orderType;
    this.quantity = record.quantity;
    this.executedQuantity = record.executedQuantity;
    this.price = record.price;
    this.executedPrice = averagePrice(record);
    this.triggerPrice = record.triggerPrice;
    this.timeInForce = record.timeInForce;
    this.expireDate = record.expireDate;
    this.outsideRth = record.outsideRth;
    this.currency = record.currency;
    this.remark = record.remark;
    this.message = record.message;
    this.tag = 'Normal';
    this.triggerStatus = record.triggerStatus;
    this.submittedAt = record.submittedAt;
    this.updatedAt = record.updatedAt;
    this.lastDone = record.lastDone;
    this.triggerAt = record.triggerAt;
    this.limitOffset = record.limitOffset;
    this.trailingAmount = record.trailingAmount;
    this.trailingPercent = record.trailingPercent;
    this.fees = record.fees.total;
  }
}

class OrderView extends OrderFields implements VenueOrder {
  readonly history: readonly OrderHistoryEntry[];
  readonly charges: OrderCharges;

  constructor(record: OrderRecord, stockName: string) {
    super(record, stockName);
    // Shared, not copied: a record's history is replaced on change, never changed in place.
    this.history = record.history;
    this.charges = { total: record.fees.total, currency: record.currency, items: record.fees.items };
  }
}

class OrderUpdateView extends OrderFields implements VenueOrderUpdate {
  readonly lastShare: Quantity | undefined;
  readonly lastPrice: Price | undefined;
  readonly lastFee: Money | undefined;
  readonly accountNo: string;

  constructor(record: OrderRecord, stockName: string, accountNo: string, fill: FillReport | undefined) {
    super(record, stockName);
    this.lastShare = fill?.quantity;
    this.lastPrice = fill?.price;
    this.lastFee = fill?.commission;
    this.accountNo = accountNo;
  }
}

/** An order change as the runtime reads it (OrderReport): a third of an update's fields. */
class OrderReportView implements OrderReport {
  readonly orderId: string;
  readonly remark: string;
  readonly status: OrderStatus;
  readonly message: string;
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  readonly quantity: Quantity;
  readonly executedQuantity: Quantity;
  readonly executedPrice: Price | undefined;
  readonly updatedAt: number;
  readonly lastShare: Quantity | undefined;
  readonly lastPrice: Price | undefined;

  constructor(record: OrderRecord, fill: FillReport | undefined) {
    this.orderId = record.orderId;
    this.remark = record.remark;
    this.status = record.status;
    this.message = record.message;
    this.symbol = record.symbol;
    this.side = record.side;
    this.quantity = record.quantity;
    this.executedQuantity = record.executedQuantity;
    this.executedPrice = averagePrice(record);
    this.updatedAt = record.updatedAt;
    this.lastShare = fill?.quantity;
    this.lastPrice = fill?.price;
  }
}

export function orderView(record: OrderRecord, stockName: string): VenueOrder {
  return new OrderView(record, stockName);
}

/** The fill a change reports: the venue's Fill of it (its commission is the fill's fee). */
export type FillReport = Pick<Fill, 'quantity' | 'price' | 'commission'>;

export function updateView(record: OrderRecord, stockName: string, accountNo: string, fill: FillReport | undefined): VenueOrderUpdate {
  return new OrderUpdateView(record, stockName, accountNo, fill);
}

/** The change as an OrderReport: the same values as updateView's for the fields it has. */
export function reportView(record: OrderRecord, fill: FillReport | undefined): OrderReport {
  return new OrderReportView(record, fill);
}

/** The history of an order before its first change (a change replaces it: it is never written to). */
const NO_HISTORY: readonly OrderHistoryEntry[] = [];

/** A new order record in NotReported, before validation. */
export function newOrderRecord(orderId: string, request: OrderRequest, now: number): OrderRecord {
  const market = marketOf(request.symbol);
  const currency = currencyOf(market);
  const zero = Money.zero(currency);
  return {
    orderId,
    symbol: request.symbol,
    market,
    currency,
    side: request.side,
    orderType: request.orderType,
    timeInForce: request.timeInForce,
    expireDate: request.expireDate,
    outsideRth: request.outsideRth,
    remark: request.remark ?? '',
    quantity: request.quantity,
    executedQuantity: Quantity.ZERO,
    executedValue: zero,
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
    fees: noFeesIn(currency),
    history: NO_HISTORY,
    average: undefined,
    limit: Number.NaN,
    trigger: Number.NaN,
    triggerDirection: 0,
    triggered: false,
    trailExtreme: Number.NaN,
    expiresAt: Number.POSITIVE_INFINITY,
    openingQuantity: Quantity.ZERO,
    referencePrice: Price.ZERO,
    cashReserve: zero,
    marginReserve: zero,
    positionReserve: Quantity.ZERO,
    feeReserve: zero,
  };
}
