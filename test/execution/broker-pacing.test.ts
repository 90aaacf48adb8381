// A broker whose own call pacing holds calls back (the HTTP client's rate limit): the executor's timeouts
// start after the pacing, so an intent that waits for its turn is placed late, not denied.
import { describe, expect, it } from 'vitest';
import type { BuyLimit } from '../../src/domain/account.js';
import type { BuyLimitQuery } from '../../src/execution/broker.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { startsRuntimes, testRuntime } from '../support/execution/runtime-setup.js';
import { StubBroker } from '../support/execution/stub-broker.js';

/** Answers the buy limit only after `heldMs` of the clock, as a call queued behind a full rate window. */
class PacedBroker extends StubBroker {
  constructor(
    private readonly paced: VirtualClock,
    readonly pacingMs: number,
    private readonly heldMs: number,
  ) {
    super(paced);
  }

  override async estimateBuyLimit(query: BuyLimitQuery): Promise<BuyLimit> {
    await new Promise<void>((resolve) => this.paced.setTimeout(resolve, this.heldMs));
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
