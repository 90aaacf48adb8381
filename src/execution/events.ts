// What the runtime reports as it works: one stream for CLI logging, journaling and notifications.
import type { FixedPoint, Fill, OrderIntent, OrderRequest, OrderStatus, Position } from '../domain/index.js';
import type { ChangeSource } from '../store/journal.js';
import type { StrategyFailure } from '../strategy/failure.js';

/** What the executor has taken and done so far (the run's summary). */
export interface ExecutionCounts {
  intents: number;
  orders: number;
  fills: number;
  denials: number;
}

/** Denial codes of the executor itself, next to the risk layer's (DENIAL_CODES). */
export const EXECUTION_DENIAL_CODES = {
  /** The intent cannot be an order (a limit order without a price, GTD without a date…). */
  invalidIntent: 'INVALID_INTENT',
  /** The venue refused the order outright. */
  refusedByBroker: 'REFUSED_BY_BROKER',
  /** The submit failed and every lookup by client order id came back without the order. */
  submitFailed: 'SUBMIT_FAILED',
} as const;

/** Why an intent did not become an order: a risk code, or one of the executor's own. */
export interface DenialInfo {
  readonly code: string;
  readonly message: string;
  readonly figures: Readonly<Record<string, string>>;
}

export type MismatchKind = 'position' | 'cash' | 'unknown-order' | 'missing-order';

export type RuntimeEvent =
  | { readonly type: 'intent'; readonly time: number; readonly strategy: string; readonly intentId: number; readonly intent: OrderIntent }
  | {
      readonly type: 'intent-skipped';
      readonly time: number;
      readonly strategy: string;
      readonly intentId: number;
      readonly intent: OrderIntent;
      readonly reason: string;
    }
  | {
      readonly type: 'denial';
      readonly time: number;
      readonly strategy: string;
      readonly intentId: number;
      readonly intent: OrderIntent;
      readonly denial: DenialInfo;
    }
  | {
      readonly type: 'order-submitted';
      readonly time: number;
      readonly strategy: string;
      readonly clientOrderId: string;
      readonly orderId: string | undefined;
      readonly request: OrderRequest;
      /** The intent's tag, if it had one. */
      readonly tag?: string | undefined;
    }
  | {
      readonly type: 'order-updated';
      readonly time: number;
      readonly strategy: string;
      readonly clientOrderId: string;
      readonly orderId: string | undefined;
      readonly from: OrderStatus;
      readonly status: OrderStatus;
      readonly source: ChangeSource;
      readonly message: string;
    }
  | {
      readonly type: 'fill';
      readonly time: number;
      readonly strategy: string;
      readonly clientOrderId: string;
      /** The tag of the intent that placed the order, if it had one. */
      readonly tag?: string | undefined;
      readonly fill: Fill;
      readonly position: Position;
    }
  /** Submitted, but neither confirmed nor refused (the broker could not be asked); reconciliation will settle it. */
  | {
      readonly type: 'order-unconfirmed';
      readonly time: number;
      readonly strategy: string;
      readonly clientOrderId: string;
      readonly reason: string;
    }
  | {
      readonly type: 'strategy-failed';
      readonly time: number;
      readonly strategy: string;
      readonly source: string;
      /** One line: the strategy, its file and the cause. */
      readonly error: string;
      /** The cause's message, where in the user's code, and the bar being handled. */
      readonly failure: StrategyFailure;
    }
  | {
      readonly type: 'reconciliation-mismatch';
      readonly time: number;
      readonly kind: MismatchKind;
      readonly message: string;
      readonly details: Readonly<Record<string, string>>;
    }
  | {
      readonly type: 'reconciled';
      readonly time: number;
      readonly openOrders: number;
      readonly positions: number;
      readonly stable: boolean;
    };

export type RuntimeEventType = RuntimeEvent['type'];

/** Quantities in event details as exact text. */
export function text(value: FixedPoint | undefined): string {
  return value === undefined ? '' : value.toFixed();
}
