import { describe, expect, it } from 'vitest';
import { BarCloseTimes } from '../../src/backtest/bar-close.js';
import { AAPL, TENCENT, dayTime, localTime } from '../support/backtest/scripted.js';

describe('bar close instants', () => {
  it("closes a daily bar at the end of its market's regular session that day", () => {
    const closes = new BarCloseTimes('day');

    expect(closes.closeOf({ symbol: AAPL, time: dayTime(AAPL, '2024-01-02') })).toBe(localTime(AAPL, '2024-01-02 16:00'));
    expect(closes.closeOf({ symbol: TENCENT, time: dayTime(TENCENT, '2024-01-02') })).toBe(localTime(TENCENT, '2024-01-02 16:00'));
    // New York summer time: still 16:00 local.
    expect(closes.closeOf({ symbol: AAPL, time: dayTime(AAPL, '2024-07-01') })).toBe(localTime(AAPL, '2024-07-01 16:00'));
  });

  it('closes an intraday bar one period after its start, cut at the end of the session it starts in', () => {
    const minutes = new BarCloseTimes('1m');
    const hours = new BarCloseTimes('60m');

    expect(minutes.closeOf({ symbol: AAPL, time: localTime(AAPL, '2024-01-02 10:30') })).toBe(localTime(AAPL, '2024-01-02 10:31'));
    expect(hours.closeOf({ symbol: AAPL, time: localTime(AAPL, '2024-01-02 15:30') })).toBe(localTime(AAPL, '2024-01-02 16:00'));
    // Hong Kong's morning session ends at 12:00.
    expect(hours.closeOf({ symbol: TENCENT, time: localTime(TENCENT, '2024-01-02 11:30') })).toBe(localTime(TENCENT, '2024-01-02 12:00'));
    // Outside the sessions (pre-market) the bar runs its full period.
    expect(hours.closeOf({ symbol: AAPL, time: localTime(AAPL, '2024-01-02 08:00') })).toBe(localTime(AAPL, '2024-01-02 09:00'));
  });

  it('remembers the closes of columns walked again, and gives the same instants as a fresh walk', () => {
    for (const period of ['15m', 'day'] as const) {
      const start = localTime(TENCENT, '2024-01-04 08:00');
      const times = Float64Array.from({ length: 400 }, (_, index) => start + index * 15 * 60_000);
      const remembering = new BarCloseTimes(period, true).of(TENCENT);
      for (let pass = 0; pass < 3; pass += 1) {
        const fresh = new BarCloseTimes(period).of(TENCENT);
        // The second and third passes go backwards through the remembered closes: nothing leaks between bars.
        for (let step = 0; step < times.length; step += 1) {
          const index = pass === 0 ? step : times.length - 1 - step;
          remembering.closeBarAt(times, index);
          fresh.closeBarAt(times, index);
          expect(remembering.lastClose).toBe(fresh.lastClose);
        }
      }
    }
  });

  it('closes week and month bars where the next one starts', () => {
    expect(new BarCloseTimes('week').closeOf({ symbol: AAPL, time: dayTime(AAPL, '2024-01-01') })).toBe(dayTime(AAPL, '2024-01-08'));
    expect(new BarCloseTimes('month').closeOf({ symbol: AAPL, time: dayTime(AAPL, '2024-01-01') })).toBe(dayTime(AAPL, '2024-02-01'));
  });

  it('gives each symbol of a market the same closes as a symbol asked alone, when their bars come interleaved', () => {
    for (const period of ['15m', 'day'] as const) {
      const closes = new BarCloseTimes(period);
      const symbols = [TENCENT, '5.HK', '9988.HK'].map((symbol) => closes.of(symbol as typeof TENCENT));
      const start = localTime(TENCENT, '2024-01-04 08:00');
      // Bars at shared times, and some a symbol has alone (a gap in another's data).
      for (let time = start, step = 0; time < start + 3 * 86_400_000; time += 15 * 60_000, step += 1) {
        symbols.forEach((symbol, which) => {
          if ((step + which) % 5 === 0) return;
          symbol.closeBar({ time });
          expect(symbol.lastClose).toBe(new BarCloseTimes(period).closeOf({ symbol: TENCENT, time }));
        });
      }
    }
  });

  it("gives the same closes when a symbol's bars come one after another as when each is asked alone", () => {
    // Every 15 minutes over two Hong Kong days (morning session, lunch break, afternoon, night) and a weekend:
    // a walked symbol remembers its last session, which must never leak into a bar outside it.
    for (const period of ['15m', '60m', 'day'] as const) {
      const walked = new BarCloseTimes(period).of(TENCENT);
      const start = localTime(TENCENT, '2024-01-04 08:00');
      for (let time = start; time < start + 4 * 86_400_000; time += 15 * 60_000) {
        walked.closeBar({ time });
        expect(walked.lastClose, `${period} bar at ${new Date(time).toISOString()}`).toBe(
          new BarCloseTimes(period).closeOf({ symbol: TENCENT, time }),
        );
      }
    }
  });

  it('tells an intraday bar that is the last of its market day in the data from the others, across days, gaps and clock changes', () => {
    // Hourly New York bars around the 2024-03-10 clock change and over the 2024-07-03 half day, with days
    // missing, every hour of the day (pre-market and night too): a bar ends its day exactly when the next bar
    // falls on a later New York date, or there is none.
    const hourly = new BarCloseTimes('60m').of(AAPL);
    const times: number[] = [];
    for (const date of ['2024-03-07', '2024-03-08', '2024-03-11', '2024-03-12', '2024-07-02', '2024-07-03', '2024-07-05']) {
      const hours = date === '2024-07-03' ? [4, 9, 10, 11, 12] : [4, 9, 10, 11, 12, 13, 14, 15, 16, 19];
      for (const hour of hours) times.push(localTime(AAPL, `${date} ${String(hour).padStart(2, '0')}:30`));
    }
    const column = Float64Array.from(times);
    const localDate = (time: number): string => new Date(time).toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
    // Asked in order, then backwards and by skipping around: the day it remembers never answers for another.
    const orders = [
      times.map((_, index) => index),
      times.map((_, index) => times.length - 1 - index),
      times.map((_, index) => (index * 7) % times.length),
    ];
    for (const order of orders) {
      for (const index of order) {
        const last = index + 1 === times.length || localDate(times[index + 1]!) !== localDate(times[index]!);
        expect(hourly.endsMarketDay(column, index), `bar at ${new Date(times[index]!).toISOString()}`).toBe(last);
      }
    }
    expect(new BarCloseTimes('day').of(AAPL).endsMarketDay(column, 0)).toBe(false);
  });
});
