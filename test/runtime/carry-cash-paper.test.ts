// A paper run's book takes the cash its simulator books outside fills as it is booked, through the real
// simulator on 127.0.0.1: a short's borrow fee is in ctx.account.cash() on the next day's first bar, with no
// reconciliation (the wall clock is virtual and never reaches the 30 s pass).
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import type { Venue } from '../../src/sim/venue/venue.js';
import { AAPL, dayBar, scripted, type ScriptContext } from '../support/backtest/scripted.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

const DAYS = ['02', '03', '04', '05', '08'];
const BARS: Candle[] = DAYS.map((day) => dayBar(AAPL, `2024-01-${day}`, 100, 101, 99, 100));

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

describe('carry in the book of a paper run', () => {
  it("shows the strategy a short's borrow fee in its cash on the next day's first bar, without a reconciliation", async () => {
    let venue: Venue | undefined;
    const seen: string[] = [];
    const record = (ctx: ScriptContext): undefined => {
      seen.push(`${ctx.account.cash('USD').toFixed()} / ${venue!.cash('USD').toFixed()}`);
      return undefined;
    };
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.sell(1_000), 1: record, 2: record, 3: record, 4: record });
    harness = await startPaperHarness({ strategies: [strategy], candles: [BARS], venue: { shortSelling: true, borrowFeeRate: 0.0365 } });
    venue = harness.sim.venue;
    await harness.stepAll();

    // Short 1,000 from the 3rd's open at 100: 100,000 received, then 10 a calendar day (100,000 × 0.0365 ÷ 365).
    expect(seen).toEqual([
      '1100000 / 1100000',
      '1099990 / 1099990',
      '1099980 / 1099980',
      '1099950 / 1099950', // Friday to Monday: three days
    ]);
    expect(harness.ofType('reconciled')).toEqual([]);
  });
});
