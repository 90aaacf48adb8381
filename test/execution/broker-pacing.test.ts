// A broker whose own call pacing holds calls back (the HTTP client's rate limit): the executor's timeouts
// start after the pacing, so an intent that waits for its turn is placed late, not denied, and a submit held
// in the queue is never given up on (and denied) while the queue still sends it afterwards.
import { describe, expect, it } from 'vitest';
import type { BuyLimit } from '../../src/domain/account.js';
import type { OrderRequest } from '../../src/domain/order.js';
import type { BuyLimitQuery, ReadOptions } from '../../src/execution/broker.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { startsRuntimes, testRuntime } from '../support/execution/runtime-setup.js';
import { StubBroker } from '../support/execution/stub-broker.js';

/**
 * Answers the buy limit only after `heldMs` of the clock, as a call queued behind a full rate window; a
 * withdrawal (the read's signal) takes it out of the queue at once, as the HTTP client's limiter does.
 */
class PacedBroker extends StubBroker {
  constructor(
    private readonly paced: VirtualClock,
    readonly pacingMs: number,
    private readonly heldMs: number,
  ) {
    super(paced);
  }

  override async estimateBuyLimit(query: BuyLimitQuery, options?: ReadOptions): Promise<BuyLimit> {
    await new Promise<void>((resolve, reject) => {
      const timer = this.paced.setTimeout(resolve, this.heldMs);
      options?.signal?.addEventListener('abort', () => {
        timer.cancel();
        reject(options.signal!.reason);
      });
    });
    return super.estimateBuyLimit(query);
  }
}

describe('a broker that paces its own calls', () => {
  const started = startsRuntimes();

  for (const [pacingMs, placed] of [
    [30_000, true],
    [0, false],
  ] as const) {
    it(`${placed ? 'places' : 'denies'} an order whose risk figures wait 25 s with ${pacingMs / 1000} s of pacing and a 10 s timeout`, async () => {
      const manual = manualStrategy();
      const clock = new VirtualClock(Date.UTC(2024, 0, 2, 15));
      const broker = new PacedBroker(clock, pacingMs, 25_000);
      const { runtime, ofType } = await started(testRuntime([manual.strategy], { requestTimeoutMs: 10_000, clock, broker }));

      manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));
      await clock.advanceByAsync(25_000);
      await runtime.settled();

      expect(broker.submitted).toHaveLength(placed ? 1 : 0);
      expect(ofType('denial').map((event) => event.denial.code)).toEqual(placed ? [] : ['RISK_DATA_UNAVAILABLE']);
    });
  }
});

describe('a stop while an intent waits for risk figures that pacing holds', () => {
  const started = startsRuntimes();

  it('ends without waiting for them: the intent is skipped, no order is placed, even when they come later', async () => {
    const manual = manualStrategy();
    const clock = new VirtualClock(Date.UTC(2024, 0, 2, 15));
    const broker = new PacedBroker(clock, 30_000, 25_000);
    const { runtime, ofType } = await started(testRuntime([manual.strategy], { requestTimeoutMs: 10_000, clock, broker }));

    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));
    await clock.advanceByAsync(1_000);
    // The virtual clock stands still: a stop that waited for the held figures would never end.
    let guard: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      runtime.stop().then(() => 'stopped'),
      // A real-time guard so a stop that waits fails the test instead of hanging it.
      new Promise<string>((resolve) => (guard = setTimeout(resolve, 5_000, 'still waiting for the figures'))),
    ]);
    clearTimeout(guard);
    await clock.advanceByAsync(25_000);

    expect(outcome).toBe('stopped');
    expect(broker.submitted).toHaveLength(0);
    expect(ofType('intent-skipped').map((event) => event.reason)).toEqual(['the run is stopping: no new orders']);
  });
});

/** Sends a submission only after `heldMs` of the clock, as a POST queued behind a full rate window would go out. */
class PacedSubmitBroker extends StubBroker {
  constructor(
    private readonly paced: VirtualClock,
    readonly pacingMs: number,
    private readonly heldMs: number,
  ) {
    super(paced);
  }

  override async submitOrder(request: OrderRequest): Promise<{ readonly orderId: string }> {
    await new Promise<void>((resolve) => this.paced.setTimeout(resolve, this.heldMs));
    return super.submitOrder(request);
  }
}

describe('a broker that paces its submissions', () => {
  const started = startsRuntimes();

  it('waits for a submit held 25 s by 30 s of pacing (10 s timeout): one order, placed and tracked, no denial', async () => {
    const manual = manualStrategy();
    const clock = new VirtualClock(Date.UTC(2024, 0, 2, 15));
    const broker = new PacedSubmitBroker(clock, 30_000, 25_000);
    const { runtime, ofType } = await started(testRuntime([manual.strategy], { requestTimeoutMs: 10_000, clock, broker }));

    manual.emit((ctx) => ctx.buy(100, { price: 187.5 }));
    await clock.advanceByAsync(25_000);
    await runtime.settled();

    expect(broker.submitted).toHaveLength(1);
    expect(ofType('denial')).toEqual([]);
    expect(ofType('order-updated').map((event) => event.status)).toEqual(['NewStatus']);
  });
});
