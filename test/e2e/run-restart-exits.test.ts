// A paper `trader run` (the built-in simulator on 127.0.0.1, its account kept beside the journal) that enters
// with a stop-loss is killed (SIGKILL) while the position is open and started again: the restarted run
// re-arms the stop from its journal before the replay goes on, and closes the position by it, tagged
// stop-loss. Without the journaled exit the restarted run would hold the position unprotected.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dayBar } from '../support/backtest/scripted.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnRun, type RunningTrader } from '../support/run/spawn-run.js';
import { US, writeCandleFolder } from '../support/sim/candles.js';
import { sqliteRows } from '../support/sqlite-rows.js';

/** A process start on a loaded 2-core machine can take tens of seconds: the guard only catches a broken run. */
const STARTUP_MS = 60_000;
const STRATEGY = 'test/support/run/strategies/enter-with-stop.ts';

// The entry is decided on the first bar and fills at the next one's open (about 100: a 5 % stop at about
// 95); four quiet days follow, then a day whose low (90) reaches the stop, then quiet days for the close.
const DAYS = ['02', '03', '04', '05', '08', '09', '10', '11', '12', '16', '17', '18'];
const ROWS: readonly (readonly [number, number, number, number])[] = [
  [100, 101, 99, 100],
  [100, 101, 99, 100.5],
  [100.5, 101, 98, 100],
  [100, 101, 98, 100],
  [100, 101, 98, 100],
  [100, 101, 98, 100],
  [99, 99.5, 90, 91],
  [91, 92, 90, 91],
  [91, 92, 90, 91],
  [91, 92, 90, 91],
  [91, 92, 90, 91],
  [91, 92, 90, 91],
];

const children: RunningTrader[] = [];
const dataFolders: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.child.exitCode === null && child.child.signalCode === null) await child.signal('SIGKILL');
  for (const folder of dataFolders.splice(0)) await rm(folder, { recursive: true, force: true });
  await removeTempFolders();
});

function start(data: string, journal: string, speed: number): RunningTrader {
  const run = spawnRun([STRATEGY, '--data', data, '--journal', journal, '--speed', String(speed), '--json-logs']);
  children.push(run);
  return run;
}

describe('trader run (paper) killed with a stop-loss held and started again', () => {
  it('re-arms the stop-loss from the journal and closes the position by it after the restart', async () => {
    const data = await writeCandleFolder([
      ROWS.map(([open, high, low, close], index) => dayBar(US, `2024-01-${DAYS[index]!}`, open, high, low, close)),
    ]);
    dataFolders.push(data);
    const journal = join(await tempFolder(), 'journal.sqlite');

    // A market day takes 6.5 s at 3600×: the stop's day is four quiet days after the fill, time enough to kill.
    const first = start(data, journal, 3600);
    await first.waitForLog('"tag":"entry","msg":"fill"', STARTUP_MS);
    expect((await first.signal('SIGKILL')).signal).toBe('SIGKILL');
    expect(first.stderr()).not.toContain('stop-loss');
    expect(sqliteRows(journal, 'SELECT strategy, symbol, exits FROM exits')).toEqual([
      { strategy: 'enter-with-stop', symbol: US, exits: '{"stopLoss":{"percent":0.05}}' },
    ]);
    expect(sqliteRows(journal, 'SELECT symbol, quantity FROM positions')).toEqual([{ symbol: US, quantity: '100' }]);

    // Nothing to race after the restart: the replay resumes where the account last changed (the fill).
    const second = start(data, journal, 50_000);
    await second.waitForLog('re-armed exits of enter-with-stop on AAPL.US (long 100', STARTUP_MS);
    await second.waitForLog('"tag":"stop-loss","msg":"fill"', STARTUP_MS);
    await second.waitForLog('exits of enter-with-stop on AAPL.US dropped: the position closed', STARTUP_MS);
    expect(await second.signal('SIGINT')).toEqual({ code: 0, signal: null });

    expect(second.stderr()).not.toContain('"tag":"entry","msg":"fill"');
    expect(sqliteRows(journal, 'SELECT side, quantity FROM fills ORDER BY time')).toEqual([
      { side: 'Buy', quantity: '100' },
      { side: 'Sell', quantity: '100' },
    ]);
    const closes = sqliteRows<{ detail: string }>(journal, `SELECT detail FROM intents WHERE kind = 'close'`);
    expect(closes.map((row) => (JSON.parse(row.detail) as { tag: string }).tag)).toEqual(['stop-loss']);
    expect(sqliteRows(journal, 'SELECT type FROM events ORDER BY id').map((row) => (row as { type: string }).type)).toEqual([
      'started',
      'started',
      'exits-rearmed',
      'stopped',
    ]);
    expect(sqliteRows(journal, 'SELECT * FROM exits')).toEqual([]);
    expect(sqliteRows(journal, 'SELECT symbol, quantity FROM positions')).toEqual([{ symbol: US, quantity: '0' }]);
  }, 240_000);
});
