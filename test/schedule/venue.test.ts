import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

describe('the paper venue of a schedule', () => {
  // A folder of one AAPL.US file whose line 3 has its high below its low.
  function paperConfig(onBadRow: string | undefined): { config: ReturnType<typeof parseScheduleConfig>; file: string } {
    stateDir = mkdtempSync(path.join(tmpdir(), 'schedule-venue-'));
    const data = path.join(stateDir, 'data');
    mkdirSync(data);
    const file = path.join(data, `${US}.csv`);
    writeFileSync(
      file,
      'date,open,high,low,close,volume\n2024-01-02,1,2,0.5,1.5,100\n2024-01-03,1,0.5,2,1,100\n2024-01-04,1,2,0.5,1.5,100\n',
    );
    const paper = onBadRow === undefined ? '{ data: [data] }' : `{ data: [data], onBadRow: ${onBadRow} }`;
    const config = parseScheduleConfig(
      `stateDir: ${stateDir}\npaper: ${paper}\njobs:\n  - { name: x, strategy: s.ts, symbols: [${US}], cron: "0 10 * * 1" }\n`,
      path.join(stateDir, 's.yaml'),
      { checkFiles: false },
    );
    return { config, file };
  }

  it("stops on a bad CSV row, naming the file, the line and the config key that skips it (not trader run's flag)", async () => {
    const { config, file } = paperConfig(undefined);

    const opening = openScheduleVenue({ config, symbols: [US], clock: systemClock, logger: silentLogger });

    await expect(opening).rejects.toThrow(`set paper.onBadRow: skip to drop them):\n${file}:3: high 0.5 is below low 2`);
    await expect(opening).rejects.not.toThrow('--on-bad-row');
  });

  it('replays the other rows with paper.onBadRow: skip', async () => {
    const { config } = paperConfig('skip');

    const venue = await openScheduleVenue({ config, symbols: [US], clock: systemClock, logger: silentLogger });
    venues.push(venue);

    expect(venue.simulator).toBeDefined();
  });
});
