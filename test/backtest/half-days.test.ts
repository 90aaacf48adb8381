// A market order decided on the last bar of a US half day (1998-12-24 closed at 13:00; the hourly data's
// last bar starts at 13:00) fills at the next market day's open, as one decided on a full day's last bar does.
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import { AAPL, backtest, localTime, minuteBar, scripted } from '../support/backtest/scripted.js';

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

  it('still fills one decided during a half day at the next bar of that day', async () => {
    const run = await backtest([BARS], [scripted([AAPL], { [FULL_DAY.length + 1]: (ctx) => ctx.buy(10) }, '60m')]);

    expect(run.record.fills.map((fill) => [fill.time, fill.price.toFixed()])).toEqual([[localTime(AAPL, '1998-12-24 11:00'), '202']]);
  });
});
