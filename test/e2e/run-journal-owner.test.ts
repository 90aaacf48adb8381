// `trader run` keeps one account's journal for that account: a journal written against one account, opened
// against another, is refused (exit 2) and left as it was; so is a `--journal` that is some other SQLite file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runTrader } from '../support/http/run-trader.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnRun, type RunningTrader } from '../support/run/spawn-run.js';
import { US, writeCandleFolder } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';
import { sqliteRows } from '../support/sqlite-rows.js';

/** A process start on a loaded 2-core machine can take tens of seconds: the guard only catches a broken run. */
const STARTUP_MS = 60_000;

const STRATEGY = 'test/support/run/strategies/buy-once.ts';
const sims: SimHarness[] = [];
const children: RunningTrader[] = [];

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.child.exitCode === null && child.child.signalCode === null) await child.signal('SIGKILL');
  for (const sim of sims.splice(0)) await sim.close();
  await removeTempFolders();
});

async function simulator(): Promise<SimHarness> {
  const sim = await startSimHarness();
  sims.push(sim);
  return sim;
}

describe('trader run and the account of its journal', () => {
  it("refuses a journal written against another account, leaving it and the other account's orders untouched", async () => {
    const [accountA, accountB] = [await simulator(), await simulator()];
    const journal = join(await tempFolder(), 'journal.sqlite');
    const first = spawnRun([STRATEGY, '--live', '--yes', '--symbols', US, '--journal', journal, '--json-logs'], accountA.sim.env);
    children.push(first);
    await first.waitForLog(`quotes of ${US} subscribed`, STARTUP_MS);
    accountA.stepUntil((tick) => tick.symbol === US);
    await first.waitForLog('"msg":"order NewStatus"', STARTUP_MS);
    expect(await first.signal('SIGINT')).toEqual({ code: 0, signal: null });
    const orders = sqliteRows(journal, 'SELECT * FROM orders');
    accountB.stepUntil((tick) => tick.symbol === US);

    const second = await runTrader(['run', STRATEGY, '--live', '--yes', '--symbols', US, '--journal', journal], accountB.sim.env);

    expect(second.code).toBe(2);
    expect(second.stderr.trim().split('\n').at(-1)).toBe(
      `error: ${journal} is the journal of the live account ${accountA.sim.env['LONGPORT_APP_KEY']} (${accountA.sim.env['LONGPORT_HTTP_URL']}), ` +
        `not of the live account ${accountB.sim.env['LONGPORT_APP_KEY']} (${accountB.sim.env['LONGPORT_HTTP_URL']}): ` +
        "it holds that account's orders and positions; use another --journal for this account",
    );
    expect(sqliteRows(journal, 'SELECT * FROM orders')).toEqual(orders);
    expect(accountB.sim.venue.orders()).toEqual([]);
  }, 180_000);

  it('refuses a --journal that is another SQLite database, and leaves the file byte for byte as it was', async () => {
    const data = await writeCandleFolder([wavingDays(10)]);
    const file = join(await tempFolder(), 'music.sqlite');
    const db = new BetterSqlite3(file);
    db.exec(`CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('So What')`);
    db.close();
    const before = readFileSync(file);

    const run = await runTrader(['run', 'strategies/sma-crossover.ts', '--symbols', AAPL, '--data', data, '--journal', file], {});

    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      `error: ${file} is a SQLite database but not a trader journal (it holds songs); it was left unchanged: point --journal at a new file or an existing journal`,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
  }, 120_000);
});
