// Candles of a coarser period built from the backtest's data (1m → 5m, 60m → day, day → month …), with the
// windows of the live feed (feeds/live/bar-window.ts). A coarse bar is emitted as soon as a data bar closes
// at its end, or (week, month, quarter, year from day bars) with its last weekday's bar, after which its
// market does not trade before the window ends: a live run has it before the next trading day opens, so
// orders decided on it fill at that day's open. When the data lacks that last bar (a holiday), or its bars
// are intraday, it is emitted with the first data bar of a later window — or, given the run's clock, when its
// window ends (a half day's bars end at 13:00, and no bar closes at the session's usual end).
import { Observable, type OperatorFunction } from 'rxjs';
import type { Candle } from '../domain/candle.js';
import type { Clock, TimerHandle } from '../domain/clock.js';
import { InvalidInputError } from '../domain/errors.js';
import { periodMinutes, type Period } from '../domain/period.js';
import { timeZoneOf } from '../domain/market-hours.js';
import { marketOf, type SecuritySymbol } from '../domain/symbol.js';
import { fromLocal, toLocal } from '../domain/time-zone.js';
import { barWindow } from '../feeds/live/bar-window.js';
import { BarCloseTimes } from './bar-close.js';

const CALENDAR_RANK: Readonly<Record<string, number>> = { day: 0, week: 1, month: 2, quarter: 3, year: 4 };

/** Why bars of `to` cannot be built from bars of `from`, or undefined when they can (or are the same). */
export function resampleProblem(from: Period, to: Period): string | undefined {
  if (from === to) return undefined;
  const fromMinutes = periodMinutes(from);
  const toMinutes = periodMinutes(to);
  if (fromMinutes !== undefined && toMinutes !== undefined) {
    if (toMinutes > fromMinutes && toMinutes % fromMinutes === 0) return undefined;
    return toMinutes < fromMinutes
      ? `${to} bars are finer than the data's ${from} bars`
      : `${to} is not a multiple of the data's ${from} bars`;
  }
  if (fromMinutes !== undefined) return undefined;
  if (toMinutes !== undefined) return `${to} bars are finer than the data's ${from} bars`;
  const fromRank = CALENDAR_RANK[from]!;
  const toRank = CALENDAR_RANK[to]!;
  if (toRank < fromRank) return `${to} bars are finer than the data's ${from} bars`;
  // Weeks straddle months and years; the other calendar periods nest.
  if (from === 'week') return `${to} bars cannot be built from week bars (weeks straddle ${to}s)`;
  return undefined;
}

/** Throws InvalidInputError (exit status 2 on the CLI) when `to` cannot be built from `from`. */
export function checkResample(from: Period, to: Period, what: string): void {
  const problem = resampleProblem(from, to);
  if (problem !== undefined)
    throw new InvalidInputError(`${what}: ${problem}; give data of a finer period or pass --period ${from}`, 'period');
}

interface OpenBucket {
  start: number;
  end: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  turnover: number | undefined;
}

/** Whether the weekday after `time`'s local day starts at or after `end` (its window holds no later weekday). */
function lastWeekdayOf(time: number, end: number, zone: string): boolean {
  const local = toLocal(time, zone);
  const weekday = new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
  const ahead = weekday === 5 ? 3 : weekday === 6 ? 2 : 1;
  return fromLocal({ year: local.year, month: local.month, day: local.day + ahead, hour: 0, minute: 0, second: 0 }, zone) >= end;
}

/**
 * Aggregates `symbol`'s closed bars of period `from` into closed bars of period `to`. With `clock` (the run's),
 * a bar no data bar closes is emitted when its window ends on the clock, as a live feed emits it (a half day's
 * day bar at the session's usual end), not with a later window's first bar.
 */
export function resample(symbol: SecuritySymbol, from: Period, to: Period, clock?: Clock): OperatorFunction<Candle, Candle> {
  checkResample(from, to, `${symbol}`);
  const market = marketOf(symbol);
  const zone = timeZoneOf(market);
  // Week, month, quarter and year bars end at midnight after their last day, long after its bar closes. Built
  // from day bars only: of intraday bars, the day's last (after-hours ones included) is known only when the
  // next bar comes.
  const calendar = from === 'day' && periodMinutes(to) === undefined && to !== 'day';
  return (source) =>
    new Observable<Candle>((subscriber) => {
      const closes = new BarCloseTimes(from);
      let bucket: OpenBucket | undefined;
      let lastEmitted = Number.NEGATIVE_INFINITY;
      let timer: TimerHandle | undefined;
      const emit = (done: OpenBucket): void => {
        timer?.cancel();
        timer = undefined;
        bucket = undefined;
        lastEmitted = done.start;
        const candle = {
          symbol,
          period: to,
          time: done.start,
          open: done.open,
          high: done.high,
          low: done.low,
          close: done.close,
          volume: done.volume,
        };
        subscriber.next(done.turnover === undefined ? candle : { ...candle, turnover: done.turnover });
      };
      return source.subscribe({
        next(bar) {
          if (bucket !== undefined && (bar.time >= bucket.end || bar.time < bucket.start)) emit(bucket);
          if (bucket === undefined) {
            const window = barWindow(bar.time, to, market);
            // A bar of a window already emitted (a late print after the close) is not part of any new bar.
            if (window.start <= lastEmitted) return;
            bucket = {
              start: window.start,
              end: window.end,
              open: bar.open,
              high: bar.high,
              low: bar.low,
              close: bar.close,
              volume: 0,
              turnover: undefined,
            };
            const opened = bucket;
            // Just after the end: a data bar closing exactly at the end (the clock is moved to it first) goes in.
            if (clock !== undefined) timer = clock.setTimeout(() => emit(opened), Math.max(0, opened.end + 1 - clock.now()));
          }
          bucket.high = Math.max(bucket.high, bar.high);
          bucket.low = Math.min(bucket.low, bar.low);
          bucket.close = bar.close;
          bucket.volume += bar.volume;
          if (bar.turnover !== undefined) bucket.turnover = (bucket.turnover ?? 0) + bar.turnover;
          if (closes.closeOf(bar) >= bucket.end || (calendar && lastWeekdayOf(bar.time, bucket.end, zone))) emit(bucket);
        },
        error: (error: unknown) => {
          timer?.cancel();
          subscriber.error(error);
        },
        // A window the data ends inside never closed: it is not emitted.
        complete: () => {
          timer?.cancel();
          subscriber.complete();
        },
      });
    });
}
