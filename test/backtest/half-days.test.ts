// A market order decided on the last bar of a US half day (1998-12-24 closed at 13:00; the hourly data's
// last bar starts at 13:00) fills at the next market day's open, as one decided on a full day's last bar does;
// in a backtest, and in paper mode through the simulator on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import { AAPL, backtest, localTime, minuteBar, scripted } from '../support/backtest/scripted.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

/** Hourly bars labelled 09:00 … as in the real hourly files, each day's prices apart so a fill shows its bar. */
function hourly(date: string, hours: readonly number[], base: number): Candle[] {
  return hours.map((hour, index) => {
    const open = base + index;
    return minuteBar(AAPL, `${date} ${String(hour).padStart(2, '0')}:00`, open, open + 0.5, open - 0.5, open + 0.25, '60m');
  });
}

const FULL_DAY = hourly('1998-12-23', [9, 10, 11, 12, 13, 14, 15], 100);
const HALF_DAY = hourly('1998-12-24', [9, 10, 11, 12, 13], 200);
const NEXT_DAY = hourly('1998-12-28', [9, 10, 11, 12, 13, 14, 15], 300);
const BARS = [...FULL_DAY, ...HALF_DAY, ...NEXT_DAY];

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

describe('half days', () => {
  it('fills a market order decided on the last bar of a half day at the next market day’s open', async () => {
    const lastOfHalfDay = FULL_DAY.length + HALF_DAY.length - 1;
    const run = await backtest([BARS], [scripted([AAPL], { [lastOfHalfDay]: (ctx) => ctx.buy(10) }, '60m')]);

    expect(run.record.fills.map((fill) => [fill.time, fill.price.toFixed()])).toEqual([[localTime(AAPL, '1998-12-28 09:00'), '300']]);
  });

  it('fills one decided on the last bar of a full day the same way', async () => {
    const run = await backtest([BARS], [scripted([AAPL], { [FULL_DAY.length - 1]: (ctx) => ctx.buy(10) }, '60m')]);

    expect(run.record.fills.map((fill) => [fill.time, fill.price.toFixed()])).toEqual([[localTime(AAPL, '1998-12-24 09:00'), '200']]);
  });

  it('emits a day bar built from the hourly bars when its window ends on a half day, so its order fills at the next day’s open', async () => {
    const run = await backtest([BARS], [scripted([AAPL], { 1: (ctx) => ctx.buy(10) }, 'day')]);

    expect(run.record.fills.map((fill) => [fill.time, fill.price.toFixed()])).toEqual([[localTime(AAPL, '1998-12-28 09:00'), '300']]);
  });

  it('decides on that day bar at the same instant when the data ends with the half day (as a look-ahead cut does)', async () => {
    const decided = async (bars: readonly Candle[]) =>
      (await backtest([bars], [scripted([AAPL], { 1: (ctx) => ctx.buy(10) }, 'day')])).intents.map((intent) => intent.time);
    const whole = await decided(BARS);

    expect(whole).toHaveLength(1);
    expect(await decided([...FULL_DAY, ...HALF_DAY])).toEqual(whole);
  });

  it('still fills one decided during a half day at the next bar of that day', async () => {
    const run = await backtest([BARS], [scripted([AAPL], { [FULL_DAY.length + 1]: (ctx) => ctx.buy(10) }, '60m')]);

    expect(run.record.fills.map((fill) => [fill.time, fill.price.toFixed()])).toEqual([[localTime(AAPL, '1998-12-24 11:00'), '202']]);
  });
});

// The simulator's live bars start at the session's 09:30, so paper runs are compared on bars that do too.
const SESSION_BARS = [
  ...hourlyAt('2024-07-02', ['09:30', '10:30', '11:30', '12:30', '13:30', '14:30', '15:30'], 100),
  ...hourlyAt('2024-07-03', ['09:30', '10:30', '11:30', '12:30'], 200),
  ...hourlyAt('2024-07-05', ['09:30', '10:30', '11:30'], 300),
];

function hourlyAt(date: string, times: readonly string[], base: number): Candle[] {
  return times.map((time, index) => {
    const open = base + index;
    return minuteBar(AAPL, `${date} ${time}`, open, open + 0.5, open - 0.5, open + 0.25, '60m');
  });
}

describe('half days in paper mode, where the simulator’s calendar has no half days', () => {
  it('fills a market order decided on the half day’s last bar at the next market day’s open, as the backtest does', async () => {
    const lastOfHalfDay = 7 + 4 - 1;
    const strategies = () => [scripted([AAPL], { [lastOfHalfDay]: (ctx) => ctx.buy(10) }, '60m')];
    const run = await backtest([SESSION_BARS], strategies());
    const expected = [[localTime(AAPL, '2024-07-05 09:30'), '300']];
    expect(run.record.fills.map((fill) => [fill.time, fill.price.toFixed()])).toEqual(expected);

    harness = await startPaperHarness({ strategies: strategies(), candles: [SESSION_BARS] });
    await harness.stepAll();

    expect(harness.sim.venue.executions().map((fill) => [fill.time, fill.price.toFixed()])).toEqual(expected);
    expect(harness.ofType('order-updated').map((event) => event.status)).toEqual(['NewStatus', 'FilledStatus']);
  });
});
