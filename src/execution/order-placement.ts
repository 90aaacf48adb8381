// Placing an approved order: the executor's record of it (tracker, journal, counts, events), the submit, and
// what the submit's outcome means for the record and the strategy. Returns a promise only while it waits
// for the broker: a backtest places tens of thousands of orders.
import { Quantity, type Clock, type OrderIntent, type OrderRequest } from '../domain/index.js';
import type { RiskLimits } from '../risk/index.js';
import type { Journal } from '../store/journal.js';
import type { Broker } from './broker.js';
import type { EventStream } from './event-stream.js';
import { EXECUTION_DENIAL_CODES, type DenialInfo, type ExecutionCounts } from './events.js';
import type { OrderFlow } from './order-flow.js';
import type { OrderRecord, OrderTracker } from './order-tracker.js';
import type { SmallSet } from './small-collections.js';
import { submitNow, submitWithLookup, type SubmitOutcome, type SubmitSettings } from './submission.js';

const MINUTE_MS = 60_000;

export interface PlacementParts {
  readonly broker: Broker;
  readonly clock: Clock;
  readonly tracker: OrderTracker;
  readonly journal: Journal;
  readonly events: EventStream;
  readonly flow: OrderFlow;
  readonly counts: ExecutionCounts;
  /** Client order ids whose submit is still being resolved. */
  readonly inFlight: SmallSet<string>;
  readonly submitSettings: SubmitSettings;
  readonly limits: RiskLimits;
  /** Times of the orders of the last minute (maxOrdersPerMinute), shared with the risk figures. */
  readonly recentOrderTimes: number[];
  readonly deny: (strategy: string, intentId: number, intent: OrderIntent, denial: DenialInfo) => void;
}

export class OrderPlacement {
  constructor(private readonly parts: PlacementParts) {}

  place(
    strategy: string,
    intentId: number,
    intent: OrderIntent,
    request: OrderRequest & { readonly remark: string },
  ): Promise<void> | undefined {
    const now = this.parts.clock.now();
    const clientOrderId = request.remark;
    const record: OrderRecord = {
      clientOrderId,
      orderId: undefined,
      intentId,
      strategy,
      tag: intent.kind === 'cancel' ? undefined : intent.tag,
      symbol: request.symbol,
      side: request.side,
      orderType: request.orderType,
      quantity: request.quantity,
      price: request.price,
      status: 'NotReported',
      executedQuantity: Quantity.ZERO,
      executedPrice: undefined,
      message: '',
      createdAt: now,
      updatedAt: now,
    };
    this.parts.tracker.add(record);
    this.parts.journal.recordOrder(record);
    if (this.parts.limits.maxOrdersPerMinute !== undefined) {
      const recent = this.parts.recentOrderTimes;
      while (recent.length > 0 && recent[0]! <= now - MINUTE_MS) recent.shift();
      recent.push(now);
    }
    this.parts.counts.orders += 1;
    if (this.parts.events.wants('order-submitted'))
      this.parts.events.next({ type: 'order-submitted', time: now, strategy, clientOrderId, orderId: undefined, request, tag: record.tag });
    this.parts.inFlight.add(clientOrderId);
    const immediate = this.parts.broker.immediate;
    if (immediate !== undefined) {
      let outcome: SubmitOutcome | Promise<SubmitOutcome>;
      try {
        outcome = submitNow(
          immediate,
          this.parts.broker,
          this.parts.clock,
          request,
          this.parts.submitSettings,
          () => record.orderId !== undefined,
        );
      } catch (error) {
        this.parts.inFlight.delete(clientOrderId);
        throw error;
      }
      if (outcome instanceof Promise) {
        return outcome.then((known) => {
          this.parts.inFlight.delete(clientOrderId);
          this.settle(strategy, intentId, intent, record, known);
        });
      }
      this.parts.inFlight.delete(clientOrderId);
      this.settle(strategy, intentId, intent, record, outcome);
      return undefined;
    }
    let submitted: Promise<void>;
    try {
      submitted = submitWithLookup(
        this.parts.broker,
        this.parts.clock,
        request,
        this.parts.submitSettings,
        () => record.orderId !== undefined,
        (outcome) => {
          this.parts.inFlight.delete(clientOrderId);
          this.settle(strategy, intentId, intent, record, outcome);
        },
      );
    } catch (error) {
      this.parts.inFlight.delete(clientOrderId);
      throw error;
    }
    return submitted;
  }

  /** What the submit's outcome means for the order record (and the strategy, when it was refused). */
  private settle(strategy: string, intentId: number, intent: OrderIntent, record: OrderRecord, outcome: SubmitOutcome): void {
    const clientOrderId = record.clientOrderId;
    switch (outcome.kind) {
      case 'accepted':
        if (record.orderId === undefined) {
          this.parts.tracker.bindOrderId(record, outcome.orderId);
          this.parts.journal.updateOrder(clientOrderId, { orderId: outcome.orderId, updatedAt: this.parts.clock.now() });
        }
        break;
      case 'found':
        this.parts.flow.handleReport(outcome.order, 'lookup');
        break;
      case 'confirmed':
        break;
      case 'refused':
        this.parts.flow.localTransition(record, 'reject', 'submit', outcome.reason);
        this.parts.deny(strategy, intentId, intent, { code: EXECUTION_DENIAL_CODES.refusedByBroker, message: outcome.reason, figures: {} });
        break;
      case 'not-found':
        this.parts.flow.localTransition(record, 'reject', 'lookup', outcome.reason);
        this.parts.deny(strategy, intentId, intent, { code: EXECUTION_DENIAL_CODES.submitFailed, message: outcome.reason, figures: {} });
        break;
      case 'unknown':
        this.parts.events.next({
          type: 'order-unconfirmed',
          time: this.parts.clock.now(),
          strategy,
          clientOrderId,
          reason: outcome.reason,
        });
        break;
    }
  }
}
