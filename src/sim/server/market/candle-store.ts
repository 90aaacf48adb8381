// The loaded candles as the quote connection serves them: only what the replay has reached (every bar
// before the one forming, plus that one as far as its ticks went), in any period derivable from the data,
// by count (cmd 19), by offset from an anchor or by date range (cmd 27).
import type { Candle } from '../../../domain/candle.js';
import { timeZoneOf } from '../../../domain/market-hours.js';
import type { Period } from '../../../domain/period.js';
import { marketOf, type SecuritySymbol } from '../../../domain/symbol.js';
import { fromLocal, startOfLocalDay } from '../../../domain/time-zone.js';
import type { ReplayTick } from '../../venue/index.js';
import { MarketDays, nextDate } from '../../venue/market-days.js';
import { aggregateCandles, isoDate } from './aggregate.js';
import type { SymbolSeries } from './market-data.js';

/** Most bars one answer carries. */
export const MAX_CANDLES_PER_ANSWER = 1000;

export type HistoryQuery =
  | {
      readonly kind: 'offset';
      readonly direction: 'backward' | 'forward';
      readonly date: number | undefined;
      readonly minute: number | undefined;
      readonly count: number;
    }
  | { readonly kind: 'date'; readonly start: number; readonly end: number };

interface Entry {
  readonly series: SymbolSeries;
  readonly days: MarketDays;
  /** Bars [0, closed) are complete and visible. */
  closed: number;
  /** Index of the bar being replayed and its state so far. */
  cursor: number;
  forming: Candle | undefined;
}

export class CandleStore {
  private readonly entries = new Map<SecuritySymbol, Entry>();

  constructor(series: readonly SymbolSeries[]) {
    for (const one of series) {
      this.entries.set(one.symbol, {
        series: one,
        days: new MarketDays(marketOf(one.symbol)),
        closed: one.replayFrom,
        cursor: one.replayFrom - 1,
        forming: undefined,
      });
    }
  }

  has(symbol: SecuritySymbol): boolean {
    return this.entries.has(symbol);
  }

  get symbols(): SecuritySymbol[] {
    return [...this.entries.keys()];
  }

  series(symbol: SecuritySymbol): SymbolSeries | undefined {
    return this.entries.get(symbol)?.series;
  }

  /** Follows the replay: each bar's ticks run open → … → close. */
  onTick(tick: ReplayTick): void {
    const entry = this.entries.get(tick.symbol);
    if (entry === undefined) return;
    if (tick.point === 'open' || entry.forming === undefined) {
      entry.cursor += 1;
      const source = entry.series.candles[entry.cursor]!;
      entry.closed = entry.cursor;
      entry.forming = {
        symbol: tick.symbol,
        period: source.period,
        time: source.time,
        open: tick.price,
        high: tick.price,
        low: tick.price,
        close: tick.price,
        volume: tick.volume,
      };
    } else {
      const bar = entry.forming;
      entry.forming = {
        ...bar,
        high: Math.max(bar.high, tick.price),
        low: Math.min(bar.low, tick.price),
        close: tick.price,
        volume: bar.volume + tick.volume,
      };
    }
    if (tick.point === 'close') {
      entry.closed = entry.cursor + 1;
      entry.forming = undefined;
    }
  }

  /** The latest `count` bars of `period`, the last possibly still forming; undefined when the period cannot be built. */
  latest(symbol: SecuritySymbol, period: Period, count: number): Candle[] | undefined {
    const bars = this.visible(symbol, period, true);
    return bars?.slice(-Math.max(0, Math.min(count, MAX_CANDLES_PER_ANSWER)));
  }

  /** Complete bars by offset or date range (market-local yyyymmdd dates, HHMM minutes). */
  history(symbol: SecuritySymbol, period: Period, query: HistoryQuery): Candle[] | undefined {
    const bars = this.visible(symbol, period, false);
    if (bars === undefined) return undefined;
    const zone = timeZoneOf(marketOf(symbol));
    if (query.kind === 'date') {
      const from = startOfLocalDay(isoDate(query.start), zone);
      const until = startOfLocalDay(nextDate(isoDate(query.end)), zone);
      return bars.slice(lowerBound(bars, from), lowerBound(bars, until)).slice(0, MAX_CANDLES_PER_ANSWER);
    }
    const count = Math.max(0, Math.min(query.count, MAX_CANDLES_PER_ANSWER));
    // Without an anchor the latest bars are meant; there is nothing newer than them.
    if (query.date === undefined) return query.direction === 'backward' ? bars.slice(Math.max(0, bars.length - count)) : [];
    const date = isoDate(query.date);
    if (query.direction === 'backward') {
      const end = query.minute === undefined ? startOfLocalDay(nextDate(date), zone) : localInstant(date, query.minute, zone) + 1;
      const stop = lowerBound(bars, end);
      return bars.slice(Math.max(0, stop - count), stop);
    }
    const start = query.minute === undefined ? startOfLocalDay(date, zone) : localInstant(date, query.minute, zone);
    const first = lowerBound(bars, start);
    return bars.slice(first, first + count);
  }

  /** Bars of `period` built from what the replay reached; without the forming one, a bucket still filling is left out too. */
  private visible(symbol: SecuritySymbol, period: Period, withForming: boolean): Candle[] | undefined {
    const entry = this.entries.get(symbol);
    if (entry === undefined) return [];
    const candles = entry.series.candles;
    const closed = candles.slice(0, entry.closed);
    if (withForming && entry.forming !== undefined) closed.push(entry.forming);
    const bars = aggregateCandles(closed, entry.series.period, period, entry.days);
    const last = closed.at(-1);
    const next = candles[entry.closed];
    if (withForming || bars === undefined || last === undefined || next === undefined) return bars;
    // The next bar to replay falls in the same bucket: that bucket is not complete yet.
    const sameBucket = aggregateCandles([last, next], entry.series.period, period, entry.days)?.length === 1;
    return sameBucket ? bars.slice(0, -1) : bars;
  }
}

function localInstant(date: string, hhmm: number, zone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return fromLocal({ year, month, day, hour: Math.floor(hhmm / 100), minute: hhmm % 100, second: 0 }, zone);
}

/** Index of the first bar at or after `time`. */
function lowerBound(bars: readonly Candle[], time: number): number {
  let low = 0;
  let high = bars.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (bars[middle]!.time < time) low = middle + 1;
    else high = middle;
  }
  return low;
}
