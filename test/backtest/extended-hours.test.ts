// Minute data with pre- and post-market bars: an order decided on the day's last regular bar waits for the
// next regular session (as one placed after the close does), unless it asks for extended hours.
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import { AAPL, backtest, localTime, minuteBar, scripted } from '../support/backtest/scripted.js';

/** One-minute bars at the given local times, each opening one above the one before. */
function minutes(date: string, times: readonly string[], base: number): Candle[] {
  return times.map((time, index) =>
    minuteBar(AAPL, `${date} ${time}`, base + index, base + index + 0.5, base + index - 0.5, base + index, '1m'),
  );
}

const DAY_ONE = minutes('2013-10-04', ['15:58', '15:59', '16:00', '16:01', '19:59'], 100);
const DAY_TWO = minutes('2013-10-07', ['04:06', '09:29', '09:30', '09:31'], 200);
const BARS = [...DAY_ONE, ...DAY_TWO];
const LAST_REGULAR = 1;

describe('extended-hours bars', () => {
  it('fills a market order decided on the last regular bar at the next regular open, past the post- and pre-market bars', async () => {
    const run = await backtest([BARS], [scripted([AAPL], { [LAST_REGULAR]: (ctx) => ctx.buy(10) }, '1m')]);

    expect(run.record.fills.map((fill) => [fill.time, fill.price.toFixed()])).toEqual([[localTime(AAPL, '2013-10-07 09:30'), '202']]);
  });

  it('fills one that asks for extended hours on the first post-market bar', async () => {
    const run = await backtest([BARS], [scripted([AAPL], { [LAST_REGULAR]: (ctx) => ctx.buy(10, { outsideRth: 'ANY_TIME' }) }, '1m')]);

    expect(run.record.fills.map((fill) => [fill.time, fill.price.toFixed()])).toEqual([[localTime(AAPL, '2013-10-04 16:00'), '102']]);
  });

  it('does not fill a regular-hours limit order on a post-market bar that reaches its price', async () => {
    const run = await backtest([BARS], [scripted([AAPL], { [LAST_REGULAR]: (ctx) => ctx.buy(10, { price: 102.5 }) }, '1m')]);

    expect(run.record.fills).toEqual([]);
  });
});
