// A `trader run` paused, or its kill switch tripped, by a person while its order intent's risk figures wait
// behind the account's HTTP pacing (other clients of the account used the window): the intent is held back
// with the gate's code at once, its reads withdrawn, and an intent after the resume (or reset) is placed as
// usual. Over the real simulator on 127.0.0.1 with the trade limit's 30 calls per 30 s, on a VirtualClock
// that stands still until the test moves it.
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger.js';
import { configFromEnv } from '../../src/openapi/config.js';
import { accountRateLimiter } from '../../src/openapi/http/rate-limiter.js';
import { GATE_CODES, ManualGate } from '../../src/ops/manual-gate.js';
import { RunControl } from '../../src/ops/run-control.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { controlledStrategy } from '../support/run/controlled-strategy.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';
import { waitFor } from '../support/schedule/wait.js';

let harness: PaperHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

const PACING = { calls: 30, windowMs: 30_000, minSpacingMs: 0 } as const;
const ACCOUNT = 'GET /v1/asset/account';
// Calls already sent are answered on real I/O once the test has moved the clock past the window: a timeout
// longer than the window keeps them from timing out on the way.
const HTTP = { rateLimit: PACING, retryDelaysMs: [100], timeoutMs: 2 * PACING.windowMs };

const CONTROLS = [
  {
    action: 'a pause',
    close: (control: RunControl) => control.pauseJob('dip-buyer'),
    open: (control: RunControl) => control.resumeJob('dip-buyer'),
    denial: { code: GATE_CODES.paused, message: 'paused by hand' },
  },
  {
    action: 'the kill switch',
    close: (control: RunControl) => control.tripKillSwitch('fat finger'),
    open: (control: RunControl) => control.resetKillSwitch(),
    denial: { code: GATE_CODES.killSwitch, message: 'kill switch: fat finger' },
  },
];

describe('a run held back by hand while its risk reads wait for the account pacing', () => {
  it.each(CONTROLS)(
    '$action denies the waiting intent at once and withdraws its reads; the next intent once lifted is placed',
    async ({ close, open, denial }) => {
      const strategy = controlledStrategy(AAPL, 'dip-buyer');
      const gate = new ManualGate();
      harness = await startPaperHarness({
        strategies: [strategy.strategy],
        gate,
        candles: [wavingDays(40)],
        http: HTTP,
        runtime: { reconcileIntervalMs: 0 },
      });
      const h = harness;
      const control = new RunControl({
        session: h.session,
        gate,
        strategy: 'dip-buyer',
        clock: h.clock,
        logger: silentLogger,
        homeCurrency: 'USD',
        timeZone: 'America/New_York',
      });
      await h.step();
      // Other calls of the account (the dashboard's reads, say) take the window's account reads.
      const limiter = accountRateLimiter(h.clock, configFromEnv(h.sim.env), PACING);
      for (let call = 0; call < PACING.calls; call++) void limiter.acquire(ACCOUNT).then((done) => done());
      await waitFor(() => limiter.waiting(ACCOUNT) > 0, 'the window to fill');
      const others = limiter.waiting(ACCOUNT);
      strategy.emit((ctx) => ctx.buy(10));
      await waitFor(() => limiter.waiting(ACCOUNT) === others + 1, "the intent's account read to queue");
      const closedAt = h.clock.now();

      expect((await close(control)).done).toBe(true);

      await waitFor(() => !h.session.runtime.busy, 'the waiting intent to be dealt with', 5_000);
      // No virtual time passed: the intent did not wait for the account's next turn (up to 30 s away).
      expect(h.clock.now()).toBe(closedAt);
      expect(limiter.waiting(ACCOUNT)).toBe(others);
      expect(h.journal('SELECT code, message FROM denials')).toEqual([denial]);
      expect(h.sim.venue.orders()).toEqual([]);

      expect((await open(control)).done).toBe(true);
      strategy.emit((ctx) => ctx.buy(20));
      await waitFor(() => limiter.waiting(ACCOUNT) === others + 1, "the next intent's account read to queue");
      await h.clock.advanceByAsync(PACING.windowMs);
      await h.until(() => h.ofType('order-submitted').length === 1, 'the next intent to be placed');

      expect(h.ofType('order-submitted').map((event) => event.request.quantity.toFixed())).toEqual(['20']);
      expect(h.journal('SELECT code FROM denials')).toEqual([{ code: denial.code }]);
    },
  );
});
