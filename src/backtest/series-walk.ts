// The backtest's walk over its series, one bar time at a time (ties in the data's series order): the next
// time is the smallest next bar time of the series, a pass over them per bar time.
//
// Per bar time T:
//   1. the clock moves to T and the venue matches resting orders against each bar of T (fills flow back to
//      the runtime at once), then marks the bar's close;
//   2. for each bar, the clock moves to the bar's close instant and the strategies see the bar;
//   3. equity (cash + positions at the closes) is recorded once for T.
// A plain (not async) method walks until the end or until the runtime has to wait for something after a
// bar (a cancel goes to the broker asynchronously); the caller awaits that and calls again, and the walk
// goes on with the next bar.
import type { VirtualClock } from '../clock/virtual-clock.js';
import type { Candle } from '../domain/candle.js';
import type { Broadcast } from '../execution/broadcast.js';
import type { BarInput, Venue } from '../sim/venue/venue.js';
import type { SymbolBarCloses } from './bar-close.js';
import type { EquityCurve } from './result.js';
import { createEquityRecorder, type EquityPoint, type EquityRecorder } from './metrics/equity-recorder.js';

export interface SeriesWalkParts {
  readonly series: readonly (readonly Candle[])[];
  /** Per series: where its bars go into the venue, when each closes, and the stream strategies see. */
  readonly inputs: readonly BarInput[];
  readonly closes: readonly SymbolBarCloses[];
  readonly feeds: readonly Broadcast<Candle>[];
  readonly clock: VirtualClock;
  readonly venue: Venue;
  readonly currency: string;
  /** True while the runtime has work it must finish before the next bar. */
  readonly busy: () => boolean;
  readonly progress: { readonly every: number; update(done: number, total: number): void } | undefined;
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

  constructor(private readonly parts: SeriesWalkParts) {
    this.cursors = new Int32Array(parts.series.length);
    this.starts = new Int32Array(parts.series.length);
    this.total = parts.series.reduce((sum, candles) => sum + candles.length, 0);
    this.nextProgress = parts.progress?.every ?? Number.POSITIVE_INFINITY;
    this.recorder = createEquityRecorder(Math.ceil(this.total / Math.max(1, parts.series.length)) + 16);
  }

  /** Equity at the close of each bar time walked so far. */
  equity(): EquityCurve {
    return this.recorder.curve();
  }

  /** The time of the first bar (0 without bars). */
  static firstTime(series: readonly (readonly Candle[])[]): number {
    let time = Number.POSITIVE_INFINITY;
    for (const candles of series) if (candles.length > 0 && candles[0]!.time < time) time = candles[0]!.time;
    return time === Number.POSITIVE_INFINITY ? 0 : time;
  }

  /** Walks on; true at the end, false when the runtime is busy after a bar (await it, then call again). */
  advance(): boolean {
    const { series, inputs, closes, feeds, clock, busy } = this.parts;
    const cursors = this.cursors;
    const starts = this.starts;
    for (;;) {
      let time = this.time;
      let index = this.index;
      let cursor = this.cursor;
      if (Number.isNaN(time)) {
        if (!this.toNextTime()) return true;
        time = this.time;
        clock.advanceTo(time);
        for (let which = 0; which < series.length; which += 1) {
          const candles = series[which]!;
          const input = inputs[which]!;
          let at = cursors[which]!;
          starts[which] = at;
          for (; at < candles.length && candles[at]!.time === time; at += 1) input.onBar(candles[at]!);
          cursors[which] = at;
          this.done += at - starts[which]!;
        }
        index = 0;
        cursor = starts[0]!;
      }
      for (; index < series.length; index += 1, cursor = index < series.length ? starts[index]! : 0) {
        const candles = series[index]!;
        const barClose = closes[index]!;
        const feed = feeds[index]!;
        const end = cursors[index]!;
        while (cursor < end) {
          const bar = candles[cursor]!;
          cursor += 1;
          barClose.closeBar(bar);
          clock.advanceTo(barClose.lastClose);
          feed.next(bar);
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
      const candles = series[index]!;
      const cursor = cursors[index]!;
      if (cursor < candles.length && candles[cursor]!.time < time) time = candles[cursor]!.time;
    }
    this.time = time;
    return time !== Number.POSITIVE_INFINITY;
  }

  private finishBarTime(): void {
    const { venue, currency, progress } = this.parts;
    const point = this.point;
    point.time = this.time;
    point.equity = venue.equityEstimate(currency);
    point.exposed = venue.holdsPositions();
    this.recorder.record(point);
    this.time = Number.NaN;
    if (this.done >= this.nextProgress) {
      progress!.update(this.done, this.total);
      this.nextProgress = this.done + progress!.every;
    }
  }
}
