// Two venue links of one account in one process (a schedule's jobs, beside its own client) pace their HTTP
// calls together against a simulator on 127.0.0.1 that enforces the same limit: the service counts the
// account's calls, so a link's call waits for the window instead of being refused with 429002.
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger.js';
import { configFromEnv } from '../../src/openapi/config.js';
import { openVenueLink, type VenueLink } from '../../src/runtime/venue-link.js';
import type { Simulator } from '../../src/sim/server/index.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';

// Each link asks for two socket tokens (trade and quote connections): four calls leave room for both.
const LIMIT = { calls: 4, windowMs: 30_000 };

let harness: SimHarness | undefined;
const links: VenueLink[] = [];

afterEach(async () => {
  for (const link of links.splice(0)) await link.close();
  await harness?.close();
  harness = undefined;
});

async function linkTo(sim: Simulator): Promise<VenueLink> {
  const link = await openVenueLink({
    config: configFromEnv(sim.env),
    clock: harness!.clock,
    logger: silentLogger,
    http: { rateLimit: { ...LIMIT, minSpacingMs: 0 }, retryDelaysMs: [] },
    quoteCallLimits: false,
  });
  links.push(link);
  return link;
}

describe('venue links of one account', () => {
  it('share the account call limit: a fifth read in the window waits for it rather than being refused', async () => {
    harness = await startSimHarness({ limits: { http: LIMIT, quote: false } });
    const first = await linkTo(harness.sim);
    const second = await linkTo(harness.sim);
    for (const link of [first, first, second, second]) await link.http.accountBalance();

    const fifth = second.http.accountBalance();
    await harness.clock.advanceByAsync(LIMIT.windowMs);

    await expect(fifth).resolves.toEqual(expect.any(Array));
  });

  it("closing one link fails only its own waiting calls; the other link's go out when the window frees", async () => {
    harness = await startSimHarness({ limits: { http: LIMIT, quote: false } });
    const first = await linkTo(harness.sim);
    const second = await linkTo(harness.sim);
    for (const link of [first, first, second, second]) await link.http.accountBalance();
    const closedOne = first.http.accountBalance().then(
      () => 'answered',
      (error: unknown) => (error as Error).message,
    );
    const waiting = second.http.accountBalance();

    await first.close();
    await harness.clock.advanceByAsync(LIMIT.windowMs);

    expect(await closedOne).toBe('client closed');
    await expect(waiting).resolves.toEqual(expect.any(Array));
  });
});
