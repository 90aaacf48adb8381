import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openScheduleVenue, type ScheduleVenue } from '../../src/cli/schedule/venue.js';
import { systemClock } from '../../src/clock/system-clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { parseScheduleConfig } from '../../src/schedule/config.js';
import { US } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';

let sim: SimHarness | undefined;
const venues: ScheduleVenue[] = [];
let stateDir: string | undefined;
afterEach(async () => {
  for (const venue of venues.splice(0)) await venue.close();
  await sim?.close();
  sim = undefined;
  if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
});

// The simulator reached as a live account: its HTTP API refreshes tokens like the service. Our HTTP client
// paces its calls on the clock, so this test runs on the system clock (nothing here waits for time).
async function liveVenue(env: Record<string, string>): Promise<ScheduleVenue> {
  const config = parseScheduleConfig(
    `mode: live\nstateDir: ${stateDir}\njobs:\n  - { name: x, strategy: s.ts, symbols: [${US}], cron: "0 10 * * 1" }\n`,
    path.join(stateDir!, 's.yaml'),
    { checkFiles: false },
  );
  const venue = await openScheduleVenue({ config, symbols: [US], clock: systemClock, logger: silentLogger, env });
  venues.push(venue);
  return venue;
}

describe('the live venue of a schedule', () => {
  it('refreshes the access token, hands it to the next sessions, keeps it for a restart, and keeps trading with it', async () => {
    sim = await startSimHarness({ clock: systemClock });
    stateDir = mkdtempSync(path.join(tmpdir(), 'schedule-venue-'));
    const env = { ...sim.sim.env, LONGPORT_ACCESS_TOKEN_EXPIRED_AT: new Date(systemClock.now() + 5 * 86_400_000).toISOString() };
    const venue = await liveVenue(env);

    const before = venue.sessionVenue();
    const expiresAt = await venue.token!.refresh();
    const after = venue.sessionVenue();
    const balances = await venue.account.balances();
    const restarted = await liveVenue(env);

    expect(before).toMatchObject({ mode: 'live', config: { accessToken: sim.sim.env.LONGPORT_ACCESS_TOKEN } });
    expect(after.mode === 'live' && after.config.accessToken).not.toBe(sim.sim.env.LONGPORT_ACCESS_TOKEN);
    expect(after).toMatchObject({ mode: 'live', config: { tokenExpiresAt: expiresAt } });
    expect(expiresAt).toBeGreaterThan(systemClock.now() + 80 * 86_400_000);
    expect(balances.length).toBeGreaterThan(0);
    expect(restarted.sessionVenue()).toEqual(after);
    expect(restarted.token?.expiresAt).toBe(expiresAt);
  });

  it("does not plan refreshes when the token's expiry is unknown", async () => {
    sim = await startSimHarness({ clock: systemClock });
    stateDir = mkdtempSync(path.join(tmpdir(), 'schedule-venue-'));

    const venue = await liveVenue({ ...sim.sim.env });

    expect(venue.token).toBeUndefined();
    expect(venue.simulator).toBeUndefined();
  });
});
