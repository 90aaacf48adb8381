// The journal as the audit trail of a watched `trader schedule`: a person's pause and kill switch through the
// dashboard's HTTP endpoint (on 127.0.0.1, with its token) are 'control' events in the schedule's journal with
// who asked, the outcome and how many open orders they cancelled, as a `trader run`'s are. The jobs run as
// sessions on the real simulator, stepped by hand; the wall clock stands inside the job's window.
import { afterEach, describe, expect, it } from 'vitest';
import { US } from '../support/sim/candles.js';
import { startScheduleOps, type ScheduleOps } from '../support/ops/schedule-ops.js';
import { waitFor } from '../support/schedule/wait.js';
import { sqliteRows } from '../support/sqlite-rows.js';

/** A window job whose run buys once, a limit order far below the market that rests until cancelled. */
const SCHEDULE = `
jobs:
  - name: us-window
    strategy: $STRATEGY
    symbols: [${US}]
    params: { limit: 150 }
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
`;

/** Monday 3 June 2024, 10:00 in New York: the window is open. */
const INSIDE_WINDOW = '2024-06-03T14:00:00Z';

let schedule: ScheduleOps | undefined;

afterEach(async () => {
  await schedule?.close();
  schedule = undefined;
});

/** Lets the job's run place its order (on the next quote) and waits until it rests at the venue. */
async function restingOrder(ops: ScheduleOps, count: number): Promise<void> {
  const h = ops.harness;
  await h.running('us-window');
  h.tick();
  await waitFor(() => h.sim.venue.orders().filter((order) => order.status === 'NewStatus').length === 1, 'the order to rest');
  expect(h.sim.venue.orders()).toHaveLength(count);
}

describe('the journal of a watched schedule', () => {
  it('keeps a pause and a kill switch from the dashboard as control events with the open orders they cancelled', async () => {
    schedule = await startScheduleOps(SCHEDULE, INSIDE_WINDOW);
    const h = schedule.harness;
    await restingOrder(schedule, 1);

    expect((await schedule.post('/api/jobs/us-window/pause')).status).toBe(200);
    expect((await schedule.post('/api/jobs/us-window/resume')).status).toBe(200);
    await restingOrder(schedule, 2);
    expect((await schedule.post('/api/kill-switch/trip', '{"reason":"fat finger"}')).status).toBe(200);

    expect(h.sim.venue.orders().map((order) => order.status)).toEqual(['CanceledStatus', 'CanceledStatus']);
    const address = '127.0.0.1';
    expect(
      sqliteRows<{ detail: string }>(h.journalFile, `SELECT detail FROM events WHERE type = 'control' ORDER BY id`).map(
        (row) => JSON.parse(row.detail) as unknown,
      ),
    ).toEqual([
      {
        action: 'pause',
        target: 'us-window',
        by: 'dashboard',
        address,
        done: true,
        message: 'job us-window paused: its run stopped and 1 open order(s) were cancelled',
        cancelled: 1,
      },
      {
        action: 'resume',
        target: 'us-window',
        by: 'dashboard',
        address,
        done: true,
        message: 'job us-window resumed: its window is open, so it runs now',
      },
      {
        action: 'trip',
        reason: 'dashboard: fat finger',
        by: 'dashboard',
        address,
        done: true,
        message: 'kill switch tripped: every job halted for the rest of its market day, 1 open order(s) cancelled',
        cancelled: 1,
      },
    ]);
  });
});
