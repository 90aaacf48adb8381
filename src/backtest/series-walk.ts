// The backtest's walk over its series' columns, one bar time at a time (ties in the data's series order):
// the next time is the smallest next bar time of the series, a pass over them per bar time.
//
// Per bar time T:
//   1. the clock moves to T and the venue matches resting orders against each bar of T (fills flow back to
//      the runtime at once), then marks the bar's close; the venue reads the bar from one reused object;
//   2. for each bar, the clock moves to the bar's close instant and the strategies see the bar (bar-feed.ts:
//      a Candle made for them only when one of them takes Candles);
//   3. equity (cash + positions at the closes) is recorded once for T.
// A plain (not async) method walks until the end or until the runtime has to wait for something after a
// bar (a cancel goes to the broker asynchronously); the caller awaits that and calls again, and the walk
// goes on with the next bar.
import type { VirtualClock } from '../clock/virtual-clock.js';
import type { CandleColumns } from '../feeds/history/candle-columns.js';
import type { BarFeed } from './bar-feed.js';
import type { Bar } from '../sim/venue/matching.js';
import type { BarInput } from '../sim/venue/bar-input.js';
import type { Venue } from '../sim/venue/venue.js';
import { equityOf, type EquityLedger } from '../sim/venue/book.js';
import type { SymbolBarCloses } from './bar-close.js';
import type { EquityCurve } from './result.js';
import { createEquityRecorder, type EquityPoint, type EquityRecorder } from './metrics/equity-recorder.js';

export interface SeriesWalkParts {
  readonly series: readonly CandleColumns[];
  /** Per series: where its bars go into the venue, when each closes, and the stream strategies see. */
  readonly inputs: readonly BarInput[];
  readonly closes: readonly SymbolBarCloses[];
  readonly feeds: readonly BarFeed[];
  readonly clock: VirtualClock;
  readonly venue: Venue;
  readonly currency: string;
  /** True while the runtime has work it must finish before the next bar. */
  readonly busy: () => boolean;
  readonly progress: { readonly every: number; update(done: number, total: number): void } | undefined;
}

/**
 * The walk's one bar: a class of its own, not an object literal, so its floats are stored in place
 * (bench/README.md, "No heap number per bar").
 */
class WalkBar implements Bar {
  time = Number.NaN;
  open = Number.NaN;
  high = Number.NaN;
  low = Number.NaN;
  close = Number.NaN;
  volume = Number.NaN;
}

export class SeriesWalk {
  /** Bars handed to the venue so far. */
  private done = 0;
  readonly total: number;
  /** The bars of the current bar time are series[i][starts[i] … cursors[i]). */
  private readonly cursors: Int32Array;
  private readonly starts: Int32Array;
  /** The bar time being shown to the strategies, NaN between bar times. */
  private time = Number.NaN;
  /** Where the showing pass stands: the series, and the bar in it. */
  private index = 0;
  private cursor = 0;
  private nextProgress: number;
  private readonly recorder: EquityRecorder;
  /** The point of the bar time being finished, filled in place (numbers from the start, so never boxed). */
  private readonly point: EquityPoint = { time: 0, equity: 0, exposed: false };
  /** The bar the venue is given, refilled from the columns for each bar (the venue keeps no reference). */
  private readonly bar = new WalkBar();
  /** Where the walk puts the instant the clock moves to (VirtualClock.advanceToAt). */
  private readonly moveTo = new Float64Array(1);
  /** The venue's ledgers, read for the equity of each bar time. */
  private readonly ledgers: readonly EquityLedger[];

  constructor(private readonly parts: SeriesWalkParts) {
    this.cursors = new Int32Array(parts.series.length);
    this.starts = new Int32Array(parts.series.length);
    this.ledgers = parts.venue.ledgers;
    this.total = parts.series.reduce((sum, columns) => sum + columns.length, 0);
    this.nextProgress = parts.progress?.every ?? Number.POSITIVE_INFINITY;
    this.recorder = createEquityRecorder(Math.ceil(this.total / Math.max(1, parts.series.length)) + 16);
  }

  /** Equity at the close of each bar time walked so far. */
  equity(): EquityCurve {
    return this.recorder.curve();
  }

  /** Ends the curve at the run's exact final equity (see EquityRecorder.settleLast). */
  settleLastEquity(equity: number): void {
    this.recorder.settleLast(equity);
  }

  /** The time of the first bar (0 without bars). */
  static firstTime(series: readonly CandleColumns[]): number {
    let time = Number.POSITIVE_INFINITY;
    for (const columns of series) if (columns.length > 0 && columns.time[0]! < time) time = columns.time[0]!;
    return time === Number.POSITIVE_INFINITY ? 0 : time;
  }

  /** Walks on; true at the end, false when the runtime is busy after a bar (await it, then call again). */
  advance(): boolean {
    const { series, inputs, closes, feeds, clock, busy } = this.parts;
    const cursors = this.cursors;
    const starts = this.starts;
    const moveTo = this.moveTo;
    for (;;) {
      let time = this.time;
      let index = this.index;
      let cursor = this.cursor;
      if (Number.isNaN(time)) {
        if (!this.toNextTime()) return true;
        time = this.time;
        moveTo[0] = time;
        clock.advanceToAt(moveTo, 0);
        const bar = this.bar;
        for (let which = 0; which < series.length; which += 1) {
          const columns = series[which]!;
          const times = columns.time;
          const input = inputs[which]!;
          const closing = closes[which]!;
          let at = cursors[which]!;
          starts[which] = at;
          for (; at < columns.length && times[at] === time; at += 1) {
            bar.time = time;
            bar.open = columns.open[at]!;
            bar.high = columns.high[at]!;
            bar.low = columns.low[at]!;
            bar.close = columns.close[at]!;
            bar.volume = columns.volume[at]!;
            input.onBar(bar, closing.endsMarketDay(times, at));
          }
          cursors[which] = at;
          this.done += at - starts[which]!;
        }
        index = 0;
        cursor = starts[0]!;
      }
      for (; index < series.length; index += 1, cursor = index < series.length ? starts[index]! : 0) {
        const columns = series[index]!;
        const barClose = closes[index]!;
        const feed = feeds[index]!;
        const end = cursors[index]!;
        while (cursor < end) {
          const at = cursor;
          cursor += 1;
          barClose.closeBarAt(columns.time, at);
          moveTo[0] = barClose.lastClose;
          clock.advanceToAt(moveTo, 0);
          if (feed.observed) feed.push(columns, at);
          if (busy()) {
            this.index = index;
            this.cursor = cursor;
            return false;
          }
        }
      }
      this.finishBarTime();
    }
  }

  /** Moves `time` to the earliest time among the series' next bars; false when every series is done. */
  private toNextTime(): boolean {
    const { series } = this.parts;
    const cursors = this.cursors;
    let time = Number.POSITIVE_INFINITY;
    for (let index = 0; index < series.length; index += 1) {
      const columns = series[index]!;
      const cursor = cursors[index]!;
      if (cursor < columns.length && columns.time[cursor]! < time) time = columns.time[cursor]!;
    }
    this.time = time;
    return time !== Number.POSITIVE_INFINITY;
  }

  private finishBarTime(): void {
    const { currency, progress } = this.parts;
    const point = this.point;
    point.time = this.time;
    equityOf(this.ledgers, currency, point);
    this.recorder.record(point);
    this.time = Number.NaN;
    if (this.done >= this.nextProgress) {
      progress!.update(this.done, this.total);
      this.nextProgress = this.done + progress!.every;
    }
  }
}
