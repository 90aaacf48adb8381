// A watched `trader run` restarted mid-day on the same journal and paper account: the day's PnL on the page, in
// /metrics and in the chat's status goes on counting from the day's first reading (kept beside the journal, as a
// schedule keeps its own), instead of starting again at 0. The paper run is the real simulator, stepped by hand.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accountDayFile, paperAccountFile } from '../../src/cli/run/flags.js';
import { Money } from '../../src/domain/money.js';
import { statusText } from '../../src/ops/telegram/format.js';
import { startRunOps, type RunOps } from '../support/ops/run-ops.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';

let run: RunOps | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
  await removeTempFolders();
});

/** The USD net assets the dashboard read last. */
function netAssets(ops: RunOps): Money {
  const usd = ops.ops.hub.state().account.balances.find((balance) => balance.currency === 'USD');
  return Money.of(usd!.netAssets, 'USD');
}

async function metric(ops: RunOps, name: string): Promise<string | undefined> {
  const text = await (await fetch(`${ops.ops.uiUrl}/metrics`, { headers: { authorization: `Bearer ${ops.token}` } })).text();
  return new RegExp(`^${name}\\{currency="USD"\\} (\\S+)$`, 'm').exec(text)?.[1];
}

describe("the day's PnL of a watched run", () => {
  it("counts from the day's first reading across a restart, not from the restarted run's first", async () => {
    const journalFile = join(await tempFolder(), 'journal.sqlite');
    const files = { journalFile, stateFile: paperAccountFile(journalFile), dayFile: accountDayFile(journalFile) };
    run = await startRunOps(files);
    await run.harness.step();
    await run.ops.hub.settled();
    const dayStart = netAssets(run);
    run.strategy.emit((ctx) => ctx.buy(1000));
    await run.harness.step(12);
    run.ops.hub.refresh();
    await run.ops.hub.settled();
    const before = netAssets(run).minus(dayStart);
    expect(before.isZero()).toBe(false);
    await run.close();

    run = await startRunOps(files);
    await run.ops.hub.settled();

    const change = netAssets(run).minus(dayStart).toFixed(2);
    expect(change).not.toBe('0.00');
    expect(run.ops.hub.state().account.dayPnl).toEqual({ currency: 'USD', change });
    expect(Number(await metric(run, 'trader_day_pnl'))).toBe(Number(change));
    expect(statusText(run.ops.hub.state())).toContain(`PnL today: ${change} USD`);
  });
});
