// The journal as the audit trail of a watched `trader run`: a person's actions through the dashboard's HTTP
// endpoint (on 127.0.0.1, with its token) are 'control' events with who asked and the outcome, and the
// intents a pause or the kill switch held back are journaled as intents denied with PAUSED or KILL_SWITCH,
// counted in the run's summary like any other denial. The paper run is the real simulator, stepped by hand.
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteRows } from '../support/sqlite-rows.js';
import { startRunOps, type RunOps } from '../support/ops/run-ops.js';
import { removeTempFolders } from '../support/run/paper-harness.js';

let run: RunOps | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
  await removeTempFolders();
});

async function post(ops: RunOps, path: string, body?: string): Promise<{ status: number; done: boolean; message: string }> {
  const response = await fetch(`${ops.ops.uiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ops.token}` },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, ...((await response.json()) as { done: boolean; message: string }) };
}

function controlEvents(ops: RunOps): Record<string, unknown>[] {
  return sqliteRows<{ detail: string }>(ops.harness.journalFile, `SELECT detail FROM events WHERE type = 'control' ORDER BY id`).map(
    (row) => JSON.parse(row.detail) as Record<string, unknown>,
  );
}

describe('the journal of a watched run', () => {
  it('keeps each dashboard action (pause, resume, kill switch trip and reset, flatten) as a control event with who asked and the outcome', async () => {
    run = await startRunOps();
    const { harness, strategy } = run;
    await harness.step();
    strategy.emit((ctx) => ctx.buy(5, { price: 50 }));
    await harness.settle();

    expect((await post(run, '/api/jobs/dip-buyer/pause')).status).toBe(200);
    expect((await post(run, '/api/jobs/dip-buyer/pause')).status).toBe(409);
    expect((await post(run, '/api/jobs/dip-buyer/resume')).status).toBe(200);
    expect((await post(run, '/api/kill-switch/trip', '{"reason":"market looks wrong"}')).status).toBe(200);
    await harness.settle();
    expect((await post(run, '/api/kill-switch/reset')).status).toBe(200);
    expect((await post(run, '/api/positions/AAPL.US/flatten')).status).toBe(409);

    const address = '127.0.0.1';
    expect(controlEvents(run)).toEqual([
      {
        action: 'pause',
        target: 'dip-buyer',
        by: 'dashboard',
        address,
        done: true,
        message: 'dip-buyer paused: its new orders are held back (open orders stay; cancel them if needed)',
      },
      { action: 'pause', target: 'dip-buyer', by: 'dashboard', address, done: false, message: 'dip-buyer is already paused' },
      { action: 'resume', target: 'dip-buyer', by: 'dashboard', address, done: true, message: 'dip-buyer resumed' },
      {
        action: 'trip',
        reason: 'dashboard: market looks wrong',
        by: 'dashboard',
        address,
        done: true,
        message: 'kill switch tripped: new orders held back, 1 open order(s) being cancelled',
        cancelled: 1,
      },
      { action: 'reset', by: 'dashboard', address, done: true, message: 'kill switch reset: the strategy may trade again' },
      { action: 'flatten', target: 'AAPL.US', by: 'dashboard', address, done: false, message: 'AAPL.US: no position to close' },
    ]);
  });

  it('journals the intents a pause or the kill switch held back as denied intents, and counts them in the summary', async () => {
    run = await startRunOps();
    const { harness, strategy } = run;
    await harness.step();

    await post(run, '/api/jobs/dip-buyer/pause');
    strategy.emit((ctx) => ctx.buy(10));
    strategy.emit((ctx) => ctx.buy(20));
    await harness.settle();
    await post(run, '/api/jobs/dip-buyer/resume');
    await post(run, '/api/kill-switch/trip', '{"reason":"fat finger"}');
    strategy.emit((ctx) => ctx.buy(30));
    strategy.emit((ctx) => ctx.cancel());
    await harness.settle();
    const metrics = await (await fetch(`${run.ops.uiUrl}/metrics`, { headers: { authorization: `Bearer ${run.token}` } })).text();
    const report = await harness.stop();

    expect(harness.sim.venue.orders()).toEqual([]);
    expect(
      sqliteRows(
        harness.journalFile,
        'SELECT i.strategy, i.kind, i.quantity, d.code, d.message FROM denials d JOIN intents i ON i.id = d.intent_id ORDER BY d.id',
      ),
    ).toEqual([
      { strategy: 'dip-buyer', kind: 'order', quantity: '10', code: 'PAUSED', message: 'paused by hand' },
      { strategy: 'dip-buyer', kind: 'order', quantity: '20', code: 'PAUSED', message: 'paused by hand' },
      { strategy: 'dip-buyer', kind: 'order', quantity: '30', code: 'KILL_SWITCH', message: 'kill switch: dashboard: fat finger' },
    ]);
    // The cancel passed the gate: an intent of its own, not denied.
    expect(sqliteRows(harness.journalFile, `SELECT kind FROM intents ORDER BY id`)).toEqual([
      { kind: 'order' },
      { kind: 'order' },
      { kind: 'order' },
      { kind: 'cancel' },
    ]);
    expect(report.denialsByCode).toEqual({ PAUSED: 2, KILL_SWITCH: 1 });
    expect(report.summary).toMatchObject({ intents: 4, denials: 3 });
    expect(metrics).toContain('trader_denials_total{strategy="dip-buyer",code="PAUSED"} 2');
    expect(metrics).toContain('trader_denials_total{strategy="dip-buyer",code="KILL_SWITCH"} 1');
  });
});
