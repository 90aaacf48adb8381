// Applies broker reports (pushes, queries, lookups) to the tracked orders and everything that follows from
// them: fills into the book, rows into the journal, events out, and per-strategy order updates.
import { isOpen, nextStatus, type Clock, type Fill, type OrderEvent, type OrderReport } from '../domain/index.js';
import type { ChangeSource, Journal } from '../store/journal.js';
import { Broadcast } from './broadcast.js';
import type { EventStream } from './event-stream.js';
import { text, type MismatchKind } from './events.js';
import type { OrderRecord, OrderTracker } from './order-tracker.js';
import type { PositionBook } from './position-book.js';

/** A change of one order, for the strategy that placed it. */
export interface OrderChange {
  readonly record: OrderRecord;
  readonly fill: Fill | undefined;
}

export class OrderFlow {
  /** Fills applied so far; reconciliation compares it before and after its queries to detect races. */
  fillCount = 0;
  readonly changes = new Broadcast<OrderChange>();
  private readonly reportedUnknown = new Set<string>();

  constructor(
    private readonly tracker: OrderTracker,
    private readonly book: PositionBook,
    private readonly journal: Journal,
    private readonly clock: Clock,
    private readonly events: EventStream,
    private readonly isOurs: (remark: string) => boolean,
    /** Counts the fill events sent (the executor's summary figure). */
    private readonly counts: { fills: number } = { fills: 0 },
    /** Called after a fill is booked (the executor takes fresh balances when the broker answers at once). */
    private readonly afterFill: (fill: Fill) => void = () => undefined,
  ) {}

  /** Applies one report; returns the fill it added, if any (undefined too for an order this runtime does not know). */
  handleReport(report: OrderReport, source: ChangeSource): Fill | undefined {
    const record = this.tracker.match(report);
    if (record === undefined) {
      if (!this.isOurs(report.remark)) this.reportUnknown(report, source);
      return undefined;
    }
    // Read at once: what follows may apply another report (a strategy ordering on this one's update).
    const { boundOrderId, from, fill, quantityChanged } = this.tracker.apply(record, report);
    const now = this.clock.now();
    if (fill !== undefined) this.recordFill(record, fill, now);
    if (boundOrderId || fill !== undefined || from !== undefined || quantityChanged) {
      this.journal.updateOrder(record.clientOrderId, {
        orderId: boundOrderId ? record.orderId : undefined,
        status: record.status,
        executedQuantity: record.executedQuantity,
        executedPrice: record.executedPrice,
        message: record.message,
        updatedAt: now,
      });
    }
    if (from !== undefined) this.announceTransition(record, from, source, now);
    if ((from !== undefined || fill !== undefined) && this.changes.observed) this.changes.next({ record, fill });
    // The venue says it is finished: nothing can change any more, and a long run must not keep every order.
    if (!isOpen(record.status)) this.tracker.forget(record);
    return fill;
  }

  /**
   * A transition decided locally (the venue refused the order, or it was never found). The record stays
   * tracked: should the order surface after all, its reports still find it by client order id.
   */
  localTransition(record: OrderRecord, event: OrderEvent, source: ChangeSource, message: string): void {
    const next = nextStatus(record.status, event, record.executedQuantity.isPositive());
    if (next === undefined || next === record.status) return;
    const from = record.status;
    this.tracker.setStatus(record, next);
    record.message = message;
    const now = this.clock.now();
    record.updatedAt = now;
    this.journal.updateOrder(record.clientOrderId, { status: next, message, updatedAt: now });
    this.announceTransition(record, from, source, now);
    if (this.changes.observed) this.changes.next({ record, fill: undefined });
  }

  mismatch(kind: MismatchKind, message: string, details: Readonly<Record<string, string>>): void {
    const time = this.clock.now();
    this.journal.recordEvent(time, 'reconciliation-mismatch', { kind, message, ...details });
    this.events.next({ type: 'reconciliation-mismatch', time, kind, message, details });
  }

  private recordFill(record: OrderRecord, fill: Fill, now: number): void {
    // Already journaled (the process died before the order's row caught up): its position was saved with it,
    // or else the restart's comparison with the broker reports the difference and takes the broker's.
    if (!this.journal.recordFill(fill, record.clientOrderId, record.strategy)) return;
    this.fillCount += 1;
    const position = this.book.applyFill(fill);
    this.afterFill(fill);
    this.journal.savePosition(position, now);
    this.counts.fills += 1;
    if (!this.events.wants('fill')) return;
    this.events.next({
      type: 'fill',
      time: now,
      strategy: record.strategy,
      clientOrderId: record.clientOrderId,
      tag: record.tag,
      fill,
      position,
    });
  }

  private announceTransition(record: OrderRecord, from: OrderRecord['status'], source: ChangeSource, now: number): void {
    this.journal.recordStateChange(record.clientOrderId, now, from, record.status, source);
    if (!this.events.wants('order-updated')) return;
    this.events.next({
      type: 'order-updated',
      time: now,
      strategy: record.strategy,
      clientOrderId: record.clientOrderId,
      orderId: record.orderId,
      from,
      status: record.status,
      source,
      message: record.message,
    });
  }

  // Orders we did not place (no matching remark or order id) are reported once each, never adopted.
  private reportUnknown(report: OrderReport, source: ChangeSource): void {
    if (this.reportedUnknown.has(report.orderId)) return;
    this.reportedUnknown.add(report.orderId);
    this.mismatch(
      'unknown-order',
      `order ${report.orderId} (${report.side} ${text(report.quantity)} ${report.symbol}, ${report.status}) is not one of ours`,
      {
        orderId: report.orderId,
        symbol: report.symbol,
        side: report.side,
        status: report.status,
        quantity: text(report.quantity),
        executedQuantity: text(report.executedQuantity),
        remark: report.remark,
        source,
      },
    );
  }
}
