// ctx.scheduler in paper mode: timers run on the replay's market time, as they run on the backtest's virtual
// time (they ran on wall time, so a strategy deciding every 36 market hours decided nothing).
import { interval, map, take } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import { defineStrategy } from '../../src/strategy/define.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import { AAPL, dayBar } from '../support/backtest/scripted.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

const HOUR = 3_600_000;
const DAYS = ['02', '03', '04', '05', '08', '09', '10', '11', '12'];
const BARS: Candle[] = DAYS.map((day, index) => dayBar(AAPL, `2024-01-${day}`, 100 + index, 102 + index, 99 + index, 101 + index));

const onTimer = () =>
  prepareStrategy(
    defineStrategy({
      name: 'on-timer',
      symbols: [AAPL],
      period: 'day',
      run: (ctx) =>
        interval(36 * HOUR, ctx.scheduler).pipe(
          take(3),
          map((tick) => (tick % 2 === 0 ? ctx.buy(1, { reason: `tick ${tick}` }) : ctx.close({ reason: `tick ${tick}` }))),
        ),
    }),
  );

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

describe('ctx.scheduler in paper mode', () => {
  it('fires its timers as the replay passes their market time', async () => {
    harness = await startPaperHarness({ strategies: [onTimer()], candles: [BARS] });
    await harness.stepAll();

    const times = harness.ofType('intent').map((event) => event.time);
    expect(times).toHaveLength(3);
    expect([times[1]! - times[0]!, times[2]! - times[1]!]).toEqual([36 * HOUR, 36 * HOUR]);
  });
});
