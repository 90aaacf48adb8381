// What became of a `trader order submit`: the service answers a submission with an order id and decides on the
// order afterwards (a rejection shows only in its status), so the command looks at the order until the venue
// has accepted or rejected it, or the wait runs out. Each look is an order-detail call, paced by the client's
// rate limiter like any other.
import { sleep } from '../../clock/sleep.js';
import type { Clock } from '../../domain/clock.js';
import { TraderError } from '../../domain/errors.js';
import { isNotYetLive, type OrderStatus } from '../../domain/order-status.js';
import type { OrderDetail } from '../../openapi/http/types.js';

/** Pauses between looks: short at first (most orders are decided within a second), then 2 s, so a long wait costs few calls. */
const LOOK_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000];

export interface SubmitOutcome {
  readonly orderId: string;
  /** Absent when the command did not wait (--no-wait). */
  readonly status?: OrderStatus;
  /** The service's message on the order: a rejection's reason. */
  readonly message?: string;
}

/** The order as last seen: accepted or finished, or still not live when `waitMs` ran out. */
export async function awaitDecision(read: () => Promise<OrderDetail>, clock: Clock, waitMs: number): Promise<OrderDetail> {
  const deadline = clock.now() + waitMs;
  for (let look = 0; ; look += 1) {
    const order = await read();
    const left = deadline - clock.now();
    if (!isNotYetLive(order.status) || left <= 0) return order;
    await sleep(clock, Math.min(LOOK_DELAYS_MS[Math.min(look, LOOK_DELAYS_MS.length - 1)]!, left));
  }
}

/** The outcome of the submitted order `orderId`, waiting up to `waitMs` for the venue's decision. */
export async function outcomeOf(orderId: string, read: () => Promise<OrderDetail>, clock: Clock, waitMs: number): Promise<SubmitOutcome> {
  try {
    const order = await awaitDecision(read, clock, waitMs);
    return { orderId, status: order.status, ...(order.message === '' ? {} : { message: order.message }) };
  } catch (error) {
    // The order went out: a bare read error would read as "not submitted" and invite a second order.
    throw new TraderError(
      'ORDER_STATUS_UNKNOWN',
      `order ${orderId} was submitted, but its status could not be read (${error instanceof Error ? error.message : String(error)}): see \`trader order show ${orderId}\``,
      { cause: error },
    );
  }
}

/**
 * Throws when the venue rejected the order (the command exits 1); returns a warning when it was still not live
 * at the end of the wait (the order may yet go either way: exiting non-zero would invite a second order).
 */
export function checkOutcome(outcome: SubmitOutcome, waitSeconds: number): string | undefined {
  const { orderId, status, message } = outcome;
  if (status === 'RejectedStatus')
    throw new TraderError('ORDER_REJECTED', `order ${orderId} was rejected: ${message ?? 'no reason given'}`);
  if (status !== undefined && isNotYetLive(status))
    return `order ${orderId} is still ${status} after ${waitSeconds} s: \`trader order show ${orderId}\` tells how it ends`;
  return undefined;
}
