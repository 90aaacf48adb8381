// Sends one order, and when the outcome is in doubt (timeout, lost response, 5xx) looks it up by its client
// order id instead of sending it again. Only a definite refusal (OrderRefusedError) counts as "not placed"
// straight away; "not found" needs every lookup to succeed and come back empty.
import { sleep } from '../clock/sleep.js';
import { isClientClosed } from '../domain/errors.js';
import type { Clock, Order, OrderRequest } from '../domain/index.js';
import { OrderRefusedError, type Broker, type ImmediateAnswers } from './broker.js';
import { withTimeout } from './with-timeout.js';

export type SubmitOutcome =
  | { readonly kind: 'accepted'; readonly orderId: string }
  | { readonly kind: 'found'; readonly order: Order }
  /** A push already tied the client order id to an order while the submit response was lost. */
  | { readonly kind: 'confirmed' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'not-found'; readonly reason: string }
  | { readonly kind: 'unknown'; readonly reason: string };

export interface SubmitSettings {
  readonly timeoutMs: number;
  /**
   * How long the submission itself may take: `timeoutMs` plus the broker's own pacing (Broker.pacingMs). A
   * submit still queued for its turn has not been sent; given up on there, it would be looked up, found
   * nowhere and denied, and then sent by the queue all the same: an order the run no longer tracks.
   */
  readonly submitTimeoutMs: number;
  /** Lookups after a doubtful submit, the first at once, then `lookupDelayMs` apart (doubling). */
  readonly lookupAttempts: number;
  readonly lookupDelayMs: number;
}

export function submitWithLookup(
  broker: Broker,
  clock: Clock,
  request: OrderRequest & { readonly remark: string },
  settings: SubmitSettings,
  /** True once a push has already tied the remark to an order (the venue answered on the other channel). */
  confirmedByPush: () => boolean,
  /** Takes the outcome; the returned promise settles once it has (rejecting if it throws). */
  onOutcome: (outcome: SubmitOutcome) => void,
): Promise<void> {
  // A plain promise chain that hands the outcome on itself, not an async function whose result the caller
  // chains again: a backtest submits tens of thousands of orders. A broker that throws instead of
  // rejecting is treated as rejecting, as an async function would.
  let submitted: Promise<{ readonly orderId: string }>;
  try {
    submitted = broker.submitOrder(request);
  } catch (error) {
    submitted = Promise.reject(error);
  }
  return withTimeout(submitted, clock, settings.submitTimeoutMs, 'submit order').then(
    ({ orderId }) => onOutcome({ kind: 'accepted', orderId }),
    (error: unknown) => {
      const outcome = afterFailedSubmit({ broker, clock, request, settings, confirmedByPush }, error);
      if (outcome instanceof Promise) return outcome.then(onOutcome);
      onOutcome(outcome);
      return undefined;
    },
  );
}

/**
 * The same for a broker that answers at once: the outcome itself, or a promise of it only when a doubtful
 * failure needs lookups.
 */
export function submitNow(
  answers: ImmediateAnswers,
  broker: Broker,
  clock: Clock,
  request: OrderRequest & { readonly remark: string },
  settings: SubmitSettings,
  confirmedByPush: () => boolean,
): SubmitOutcome | Promise<SubmitOutcome> {
  try {
    return { kind: 'accepted', orderId: answers.submit(request).orderId };
  } catch (error) {
    return afterFailedSubmit({ broker, clock, request, settings, confirmedByPush }, error);
  }
}

/** What a lookup after a failed submit works with. */
interface DoubtfulSubmit {
  readonly broker: Broker;
  readonly clock: Clock;
  readonly request: OrderRequest & { readonly remark: string };
  readonly settings: SubmitSettings;
  readonly confirmedByPush: () => boolean;
}

/** A refusal is final; any other failure is looked up, and every outcome is handed on, so the caller always learns how the order stands. */
function afterFailedSubmit(submit: DoubtfulSubmit, error: unknown): SubmitOutcome | Promise<SubmitOutcome> {
  if (error instanceof OrderRefusedError) return { kind: 'refused', reason: error.message };
  return lookUp(submit, error).catch(
    (failure: unknown): SubmitOutcome => ({ kind: 'unknown', reason: `the lookup after a failed submit broke (${describe(failure)})` }),
  );
}

async function lookUp({ broker, clock, request, settings, confirmedByPush }: DoubtfulSubmit, failure: unknown): Promise<SubmitOutcome> {
  const doubt = describe(failure);
  let lookupError: string | undefined;
  for (let attempt = 0; attempt < settings.lookupAttempts; attempt += 1) {
    if (attempt > 0) await sleep(clock, settings.lookupDelayMs * 2 ** (attempt - 1));
    if (confirmedByPush()) return { kind: 'confirmed' };
    try {
      const orders = await withTimeout(broker.todayOrders({ symbol: request.symbol }), clock, settings.timeoutMs, 'order lookup');
      const found = orders.find((order) => order.remark === request.remark);
      if (found !== undefined) return { kind: 'found', order: found };
    } catch (error) {
      lookupError = describe(error);
      // The broker's client was closed (an aborted run): no later lookup can answer either.
      if (isClientClosed(error)) break;
    }
  }
  if (lookupError === undefined) return { kind: 'not-found', reason: `submit failed (${doubt}) and the order is not at the broker` };
  return { kind: 'unknown', reason: `submit failed (${doubt}) and the lookup failed too (${lookupError})` };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
