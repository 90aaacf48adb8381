// Whether the data's intraday bars start where the venue's do. A paper or live run builds its bars from
// ticks in the venue's windows (bar-window.ts: intraday bars count from the regular session's open), so data
// labelled on clock hours (10:00, 11:00 … for US 60m bars, where the venue has 9:30, 10:30 …) shows a live
// strategy other bars than its backtest.
import type { BacktestData } from '../../backtest/data.js';
import { localTime } from '../../backtest/report/local-time.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { periodMinutes } from '../../domain/period.js';
import { marketOf } from '../../domain/symbol.js';
import { barWindow } from '../../feeds/live/bar-window.js';

/** Why the data's bars are not the venue's, in words; undefined when every bar starts a venue bar. */
export function venueMisalignment(data: BacktestData): string | undefined {
  for (const series of data.series) {
    if (periodMinutes(series.period) === undefined) continue;
    const market = marketOf(series.symbol);
    const { time, length } = series.columns;
    for (let index = 0; index < length; index += 1) {
      const start = barWindow(time[index]!, series.period, market).start;
      if (start === time[index]) continue;
      const iso = localTime(timeZoneOf(market)).iso;
      const clock = (instant: number): string => iso(instant).slice(11, 16);
      return (
        `the data's ${series.period} bars do not start where the venue's do: ${series.symbol}'s bar of ` +
        `${iso(time[index]!).slice(0, 10)} ${clock(time[index]!)} lies in the venue's bar from ${clock(start)} ` +
        `(${market} intraday bars count from the session's open), so a paper or live run, which builds the venue's bars ` +
        'from ticks, shows the strategy other bars than the backtest'
      );
    }
  }
  return undefined;
}
