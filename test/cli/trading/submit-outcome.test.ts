// What `trader order submit` makes of the order it sent: it looks again (on the clock, here a VirtualClock)
// while the venue has not decided, stops at the first decision or when the wait runs out, and turns a rejection
// into an error (exit 1) and an undecided order into a warning. The command against the simulator is in
// test/e2e/order-submit-cli.test.ts.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { exitCodeFor, formatError } from '../../../src/cli/errors.js';
import { awaitDecision, checkOutcome, outcomeOf } from '../../../src/cli/trading/submit-outcome.js';
import type { OrderStatus } from '../../../src/domain/order-status.js';
import type { OrderDetail } from '../../../src/openapi/http/types.js';

/** An order-detail reader answering the given statuses in turn (the last one from then on), noting when it was asked. */
function reader(clock: VirtualClock, statuses: readonly OrderStatus[], message = '') {
  const looks: number[] = [];
  const read = async (): Promise<OrderDetail> => {
    looks.push(clock.now());
    const status = statuses[Math.min(looks.length, statuses.length) - 1]!;
    return { status, message } as unknown as OrderDetail;
  };
  return { looks, read };
}

describe('waiting for the venue to decide on a submitted order', () => {
  it('looks again, sooner first, while the order is not yet live, and stops once it is', async () => {
    const clock = new VirtualClock(0);
    const { looks, read } = reader(clock, ['NotReported', 'WaitToNew', 'NewStatus']);

    const decided = awaitDecision(read, clock, 10_000);
    await clock.runAllAsync();

    expect((await decided).status).toBe('NewStatus');
    expect(looks).toEqual([0, 250, 750]);
  });

  it('gives up when the wait runs out, without a look after it, and warns that the order is undecided', async () => {
    const clock = new VirtualClock(0);
    const { looks, read } = reader(clock, ['WaitToNew']);

    const outcome = outcomeOf('7001', read, clock, 3_000);
    await clock.runAllAsync();

    expect(await outcome).toEqual({ orderId: '7001', status: 'WaitToNew' });
    expect(looks).toEqual([0, 250, 750, 1_750, 3_000]);
    expect(checkOutcome(await outcome, 3)).toBe('order 7001 is still WaitToNew after 3 s: `trader order show 7001` tells how it ends');
  });

  it('turns a rejection into an error naming the reason (exit status 1)', async () => {
    const clock = new VirtualClock(0);
    const { read } = reader(clock, ['NotReported', 'RejectedStatus'], 'insufficient buying power');

    const outcome = outcomeOf('7001', read, clock, 10_000);
    await clock.runAllAsync();
    let rejected: unknown;
    try {
      checkOutcome(await outcome, 10);
    } catch (error) {
      rejected = error;
    }

    expect(await outcome).toEqual({ orderId: '7001', status: 'RejectedStatus', message: 'insufficient buying power' });
    expect(formatError(rejected, false)).toBe('error: order 7001 was rejected: insufficient buying power');
    expect(exitCodeFor(rejected)).toBe(1);
  });

  it('says the order went out when its status cannot be read', async () => {
    const clock = new VirtualClock(0);
    const failing = (): Promise<OrderDetail> => Promise.reject(new Error('internal error (500000)'));

    await expect(outcomeOf('7001', failing, clock, 10_000)).rejects.toThrow(
      'order 7001 was submitted, but its status could not be read (internal error (500000)): see `trader order show 7001`',
    );
  });

  it('neither warns nor fails once the order is live or finished', () => {
    expect(checkOutcome({ orderId: '7001', status: 'NewStatus' }, 10)).toBeUndefined();
    expect(checkOutcome({ orderId: '7001', status: 'FilledStatus' }, 10)).toBeUndefined();
    expect(checkOutcome({ orderId: '7001' }, 0)).toBeUndefined();
  });
});
