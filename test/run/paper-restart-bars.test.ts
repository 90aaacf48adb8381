// A paper run stopped and started again on the same journal and paper account (`trader run` after a kill -9 or
// Ctrl-C) goes on with the bars the strategy has not seen: after a stop right after a bar's close (the simulator
// saved its replay position at that close) the first bar after the restart is the next one, whole, and no bar
// comes twice; after a stop in the middle of a bar, the first bar is that bar as the backtest has it (what was
// traded before the restart included). Day, hour and minute bars, against the real simulator on 127.0.0.1
// stepped by hand.
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { ignoreElements, tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import type { Period } from '../../src/domain/period.js';
import { defineStrategy } from '../../src/strategy/define.js';
import { prepareStrategy, type PreparedStrategy } from '../../src/strategy/prepare.js';
import { backtest, minuteBar } from '../support/backtest/scripted.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { removeTempFolders, startPaperHarness, tempFolder, type PaperHarness } from '../support/run/paper-harness.js';

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

/** A strategy that only records the bars it is handed. */
function watching(period: Period, seen: Candle[]): PreparedStrategy {
  const definition = defineStrategy({
    name: 'watching',
    symbols: [AAPL],
    period,
    run: (ctx) =>
      ctx.candles(AAPL).pipe(
        tap((candle) => seen.push(candle)),
        ignoreElements(),
      ),
  });
  return prepareStrategy(definition, {}, 'watching strategy');
}

/** Intraday bars of `minutes` over the US sessions of the given dates, closes on a wave. */
function intradayBars(period: Period, minutes: number, dates: readonly string[], perDay: number): Candle[] {
  const bars: Candle[] = [];
  let previous = 100;
  for (const date of dates) {
    for (let slot = 0; slot < perDay; slot += 1) {
      const close = Math.round((100 + 3 * Math.sin((bars.length * Math.PI) / 5)) * 100) / 100;
      const at = 9 * 60 + 30 + slot * minutes;
      const local = `${date} ${String(Math.floor(at / 60)).padStart(2, '0')}:${String(at % 60).padStart(2, '0')}`;
      bars.push(
        minuteBar(
          AAPL,
          local,
          previous,
          Math.max(previous, close) + 0.4,
          Math.min(previous, close) - 0.3,
          close,
          period,
          1_000 + 7 * bars.length,
        ),
      );
      previous = close;
    }
  }
  return bars;
}

const SERIES: readonly (readonly [Period, readonly Candle[]])[] = [
  ['day', wavingDays(12)],
  ['60m', intradayBars('60m', 60, ['2024-01-02', '2024-01-03'], 7)],
  ['1m', intradayBars('1m', 1, ['2024-01-02'], 12)],
];

/** What a strategy sees of a bar. */
const whole = (candle: Candle) => ({
  time: candle.time,
  open: candle.open,
  high: candle.high,
  low: candle.low,
  close: candle.close,
  volume: candle.volume,
});

/** The paper account's file as it is now (what a kill -9 would leave), copied aside. */
function keepCopy(stateFile: string): string {
  const copy = `${stateFile}.kept`;
  const db = new BetterSqlite3(stateFile);
  try {
    db.exec(`VACUUM INTO '${copy}'`);
  } finally {
    db.close();
  }
  return copy;
}

async function files(): Promise<{ journalFile: string; stateFile: string }> {
  const folder = await tempFolder();
  return { journalFile: join(folder, 'journal.sqlite'), stateFile: join(folder, 'journal.account.sqlite') };
}

/** Steps until the replay has delivered the `index`-th bar's tick at `point` (0: open … 3: close). */
async function stepTo(h: PaperHarness, bars: readonly Candle[], index: number, tickIndex: number): Promise<void> {
  const bar = bars[index]!;
  let counted = -1;
  for (;;) {
    const tick = await h.step();
    if (tick === undefined) throw new Error('the replay ended first');
    if (tick.barStart >= bar.time && tick.time >= bar.time && (index + 1 >= bars.length || tick.time < bars[index + 1]!.time)) {
      counted += 1;
      if (counted === tickIndex) return;
    }
  }
}

describe('a paper run restarted on its journal and paper account', () => {
  for (const [period, bars] of SERIES) {
    it(`${period} bars: after a stop right after a bar's close, starts with the next bar, whole, and sees no bar twice`, async () => {
      const kept = await files();
      const before: Candle[] = [];
      harness = await startPaperHarness({ strategies: [watching(period, before)], candles: [bars], ...kept });
      const stopAt = 4;
      await stepTo(harness, bars, stopAt, 3);
      await Promise.resolve();
      // The simulator saved its position at this close; a kill -9 from here until the next close leaves that.
      const atClose = keepCopy(kept.stateFile);
      await harness.step();
      expect(before.map(whole)).toEqual(bars.slice(0, stopAt + 1).map(whole));
      await harness.stop();
      harness = undefined;
      copyFileSync(atClose, kept.stateFile);
      rmSync(`${kept.stateFile}-wal`, { force: true });
      rmSync(`${kept.stateFile}-shm`, { force: true });

      const after: Candle[] = [];
      harness = await startPaperHarness({ strategies: [watching(period, after)], candles: [bars], ...kept });
      await harness.stepAll();

      expect(after.map(whole)).toEqual(bars.slice(stopAt + 1).map(whole));
      const times = [...before, ...after].map((candle) => candle.time);
      expect(new Set(times).size).toBe(times.length);
    });
  }
});

describe('a paper run restarted in the middle of a bar', () => {
  // The strategy's period is coarser than the data's: the stop falls after a data bar that does not end the strategy's.
  const CASES: readonly (readonly [Period, Candle[], number])[] = [
    // Hour bars from quarter hours: stopped at 11:00, halfway through the 10:30 hour.
    ['60m', intradayBars('15m', 15, ['2024-01-02', '2024-01-03'], 8), 5],
    // Day bars from hour bars: stopped at 12:30 on the second day.
    ['day', intradayBars('60m', 60, ['2024-01-02', '2024-01-03', '2024-01-04'], 7), 9],
  ];
  for (const [period, bars, stopAt] of CASES) {
    it(`${period} bars from ${bars[0]!.period} data: the bar under way at the restart is the backtest's, whole`, async () => {
      const tested: Candle[] = [];
      await backtest([bars], [watching(period, tested)]);
      const kept = await files();
      harness = await startPaperHarness({ strategies: [watching(period, [])], candles: [bars], ...kept });
      await stepTo(harness, bars, stopAt, 3);
      await harness.stop();
      harness = undefined;

      const after: Candle[] = [];
      harness = await startPaperHarness({ strategies: [watching(period, after)], candles: [bars], ...kept });
      await harness.stepAll();

      const underWay = tested.findLast((candle) => candle.time <= bars[stopAt]!.time)!;
      expect(underWay.time).toBeLessThan(bars[stopAt]!.time);
      expect(after.map(whole)).toEqual(tested.filter((candle) => candle.time >= underWay.time).map(whole));
    });
  }
});
