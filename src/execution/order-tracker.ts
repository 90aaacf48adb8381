// Every order this runtime placed, tracked through the domain transition table from pushes and queries.
// Reports are matched by order id, else by client order id (remark); cumulative executed quantity yields
// the fills, so duplicated, late or out-of-order reports add nothing twice and never move a status back.
import {
  Quantity,
  fillFromReport,
  eventForReportedStatus,
  isOpen,
  nextStatus,
  type Fill,
  type Order,
  type OrderReport,
  type OrderStatus,
  type OrderType,
  type Price,
  type SecuritySymbol,
  type Side,
} from '../domain/index.js';
import { Money } from '../domain/money.js';
import { Price as PriceValue } from '../domain/price.js';
import { signedQuantity } from '../risk/index.js';
import { SmallMap, SmallSet } from './small-collections.js';
import type { JournalOrder } from '../store/journal.js';

export interface OrderRecord {
  readonly clientOrderId: string;
  orderId: string | undefined;
  readonly intentId: number | undefined;
  readonly strategy: string;
  /** The intent's tag, carried into fill events and the strategy's order updates. */
  readonly tag?: string | undefined;
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  readonly orderType: OrderType;
  quantity: Quantity;
  readonly price: Price | undefined;
  status: OrderStatus;
  executedQuantity: Quantity;
  executedPrice: Price | undefined;
  message: string;
  readonly createdAt: number;
  updatedAt: number;
}

/**
 * What the last report applied changed: a status transition, a fill, both, or nothing (undefined fields).
 * One per tracker, written over by each report (a backtest applies two an order): read it before the next.
 */
export interface ReportEffect {
  readonly boundOrderId: boolean;
  /** The status the report moved the order from (to the record's status now); undefined when it did not move it. */
  readonly from: OrderStatus | undefined;
  readonly fill: Fill | undefined;
  readonly quantityChanged: boolean;
}

class LastEffect implements ReportEffect {
  boundOrderId = false;
  from: OrderStatus | undefined = undefined;
  fill: Fill | undefined = undefined;
  quantityChanged = false;
}

export class OrderTracker {
  private readonly byClientId = new SmallMap<OrderRecord>();
  private readonly byOrderId = new SmallMap<OrderRecord>();
  /** Records not yet terminal: what risk, cancels and reconciliation look at (finished orders pile up). */
  private readonly openRecords = new SmallSet<OrderRecord>();
  private readonly effect = new LastEffect();

  add(record: OrderRecord): void {
    this.byClientId.set(record.clientOrderId, record);
    if (record.orderId !== undefined) this.byOrderId.set(record.orderId, record);
    if (isOpen(record.status)) this.openRecords.add(record);
  }

  /** Moves a record to a new status (the caller has checked the transition table). */
  setStatus(record: OrderRecord, status: OrderStatus): void {
    record.status = status;
    if (!isOpen(status)) this.openRecords.delete(record);
  }

  /** Stops tracking a finished order; later reports of it no longer match. */
  forget(record: OrderRecord): void {
    this.byClientId.delete(record.clientOrderId);
    if (record.orderId !== undefined) this.byOrderId.delete(record.orderId);
    this.openRecords.delete(record);
  }

  bindOrderId(record: OrderRecord, orderId: string): void {
    record.orderId = orderId;
    this.byOrderId.set(orderId, record);
  }

  /** The record a broker report belongs to, or undefined for an order this runtime does not know. */
  match(report: Pick<Order, 'orderId' | 'remark'>): OrderRecord | undefined {
    return this.byOrderId.get(report.orderId) ?? (report.remark === '' ? undefined : this.byClientId.get(report.remark));
  }

  open(strategy?: string, symbol?: SecuritySymbol): OrderRecord[] {
    const result: OrderRecord[] = [];
    for (const record of this.openRecords.items) {
      if ((strategy === undefined || record.strategy === strategy) && (symbol === undefined || record.symbol === symbol)) {
        result.push(record);
      }
    }
    return result;
  }

  /** Signed quantity still to fill in the open orders of a symbol (without building a list: a backtest asks per bar). */
  workingQuantity(symbol: SecuritySymbol): Quantity {
    let total: Quantity | undefined;
    const records = this.openRecords.items;
    for (let index = 0; index < records.length; index += 1) {
      const record = records[index]!;
      if (record.symbol !== symbol) continue;
      const left = signedQuantity(record.side, record.quantity.minus(record.executedQuantity));
      total = total === undefined ? left : total.plus(left);
    }
    return total ?? Quantity.ZERO;
  }

  /** Applies a push or query result to its record; the effect is the tracker's own, written over by the next report. */
  apply(record: OrderRecord, report: OrderReport): ReportEffect {
    let boundOrderId = false;
    if (record.orderId === undefined) {
      this.bindOrderId(record, report.orderId);
      boundOrderId = true;
    }
    // The same cumulative quantity adds no fill (most reports: accepted, cancelled, repeated).
    const fill = report.executedQuantity === record.executedQuantity ? undefined : this.fillOf(record, report);
    if (fill !== undefined) {
      record.executedPrice = report.executedPrice ?? averageAfter(record, fill);
      record.executedQuantity = report.executedQuantity;
    }
    let from: OrderStatus | undefined;
    const event = eventForReportedStatus(report.status);
    const next = event === undefined ? undefined : nextStatus(record.status, event, record.executedQuantity.isPositive());
    if (next !== undefined && next !== record.status) {
      from = record.status;
      this.setStatus(record, next);
      if (report.message !== '') record.message = report.message;
    }
    // A replace changes the quantity; only an accepted (non-stale) report may say so.
    const quantityChanged = from !== undefined && !report.quantity.eq(record.quantity) && report.quantity.isPositive();
    if (quantityChanged) record.quantity = report.quantity;
    if (fill !== undefined || from !== undefined) record.updatedAt = report.updatedAt;
    const effect = this.effect;
    effect.boundOrderId = boundOrderId;
    effect.from = from;
    effect.fill = fill;
    effect.quantityChanged = quantityChanged;
    return effect;
  }

  private fillOf(record: OrderRecord, report: OrderReport): Fill | undefined {
    return fillFromReport(
      {
        orderId: report.orderId,
        symbol: record.symbol,
        side: record.side,
        executedQuantity: report.executedQuantity,
        executedPrice: report.executedPrice,
        lastShare: report.lastShare,
        lastPrice: report.lastPrice,
        time: report.updatedAt,
      },
      record.executedQuantity,
      record.executedPrice,
    );
  }
}

/** The order's average price after `fill`, from the average before it (a report without its own average). */
function averageAfter(record: OrderRecord, fill: Fill): Price {
  const currency = fill.commission.currency;
  const before = Money.notional(record.executedQuantity, record.executedPrice ?? fill.price, currency);
  return PriceValue.average(before.plus(Money.notional(fill.quantity, fill.price, currency)), record.executedQuantity.plus(fill.quantity));
}

export function recordFromJournal(row: JournalOrder): OrderRecord {
  return { ...row };
}
