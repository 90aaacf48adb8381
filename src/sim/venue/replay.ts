// Market replay: candle series turned into one time-ordered stream of quote ticks (several symbols
// interleaved), paced on the injected clock at `speed` × real time with the idle time between bars
// (nights, weekends, lunch breaks between intraday bars) skipped, or stepped by hand. An optional gate may
// hold a tick back (asynchronously) before it goes out, e.g. while in-process clients act on the bars it ends,
// and hold the end of the data back the same way: no later tick ends the last bars, the data's end does.
//
// Each bar becomes four ticks: open → first extreme → second extreme → close, the extremes in the order the
// venue's intrabar path takes them (by default, for the replay alone, low first for a rising bar and high
// first for a falling one), so re-aggregating a bar's ticks gives back the bar exactly and orders fill on
// them as a backtest fills them on the bar. Tick times lie inside the bar's period; a day (or longer) bar's
// ticks lie inside the market's regular sessions.
import type { Candle } from '../../domain/candle.js';
import type { Clock, TimerHandle } from '../../domain/clock.js';
import { periodMinutes } from '../../domain/period.js';
import { marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { MarketDays } from './market-days.js';
import { highFirstOn } from './matching.js';
import type { IntrabarPath } from './settings.js';

export type TickPoint = 'open' | 'high' | 'low' | 'close';

export interface ReplayTick {
  readonly symbol: SecuritySymbol;
  readonly time: number;
  readonly price: number;
  readonly point: TickPoint;
  /** Volume of this tick alone. */
  readonly volume: number;
  /** Cumulative volume and turnover of the market day, after this tick. */
  readonly dayVolume: number;
  readonly dayTurnover: number;
  readonly dayOpen: number;
  readonly dayHigh: number;
  readonly dayLow: number;
  /** The active span of the bar the tick comes from, [barStart, barEnd). */
  readonly barStart: number;
  readonly barEnd: number;
  /** The whole volume of the bar the tick comes from. */
  readonly barVolume: number;
  /**
   * The close of the symbol's last intraday bar of its market day in the data (a half day's bars end early):
   * an order placed after it belongs to the next market day, as in a backtest.
   */
  readonly lastOfDay: boolean;
}

interface DayTotals {
  key: number;
  volume: number;
  turnover: number;
  open: number;
  high: number;
  low: number;
}

/** The ticks of one symbol's candles, in time order. */
function* symbolTicks(candles: readonly Candle[], path: IntrabarPath): Generator<ReplayTick> {
  if (candles.length === 0) return;
  const days = new MarketDays(marketOf(candles[0]!.symbol));
  const totals: DayTotals = { key: -1, volume: 0, turnover: 0, open: 0, high: 0, low: 0 };
  const intraday = periodMinutes(candles[0]!.period) !== undefined;
  for (let index = 0; index < candles.length; index++) {
    const candle = candles[index]!;
    const next = candles[index + 1];
    const lastOfDay = intraday && (next === undefined || next.time >= days.dayEnd(candle.time));
    yield* barTicks(candle, days, totals, path, lastOfDay);
  }
}

function* barTicks(candle: Candle, days: MarketDays, totals: DayTotals, path: IntrabarPath, lastOfDay: boolean): Generator<ReplayTick> {
  const times = tickTimes(candle, days);
  const key = days.dayKey(times.start);
  // A new day starts from its open: the bar's high and low are not printed yet (quotes must not show them early).
  if (key !== totals.key) Object.assign(totals, { key, volume: 0, turnover: 0, open: candle.open, high: candle.open, low: candle.open });
  const points: readonly TickPoint[] = highFirstOn(path, candle) ? ['open', 'high', 'low', 'close'] : ['open', 'low', 'high', 'close'];
  const share = candle.volume / 4;
  const base = totals.volume;
  let cumulative = base;
  for (let index = 0; index < 4; index++) {
    const point = points[index]!;
    const price = candle[point];
    // The last tick lands exactly on the bar's total, so cumulative differences give back its volume.
    const next = index === 3 ? base + candle.volume : cumulative + Math.floor(share);
    const volume = next - cumulative;
    cumulative = next;
    totals.volume = cumulative;
    totals.turnover += turnoverOf(candle, price, volume, index === 3);
    totals.high = Math.max(totals.high, price);
    totals.low = Math.min(totals.low, price);
    yield {
      symbol: candle.symbol,
      time: times.at[index]!,
      price,
      point,
      volume,
      dayVolume: cumulative,
      dayTurnover: totals.turnover,
      dayOpen: totals.open,
      dayHigh: totals.high,
      dayLow: totals.low,
      barStart: times.start,
      barEnd: times.end,
      barVolume: candle.volume,
      lastOfDay: lastOfDay && index === 3,
    };
  }
}

/** A tick's share of the bar's turnover (price × volume when the bar has none). */
function turnoverOf(candle: Candle, price: number, volume: number, last: boolean): number {
  if (candle.turnover === undefined) return price * volume;
  if (candle.volume > 0) return (candle.turnover * volume) / candle.volume;
  return last ? candle.turnover : 0;
}

/**
 * Four instants inside the bar: evenly over its period, cut at the end of the regular session it starts in
 * (where a backtest closes it: a 15:30 hour bar ends at 16:00, as the venue's own does); or over a day bar's
 * trading sessions.
 */
function tickTimes(candle: Candle, days: MarketDays): { start: number; end: number; at: number[] } {
  const minutes = periodMinutes(candle.period);
  if (minutes !== undefined) {
    const end = Math.min(candle.time + minutes * 60_000, sessionEndOf(candle.time, days));
    const span = end - candle.time;
    return { start: candle.time, end, at: [0, 1, 2, 3].map((k) => candle.time + Math.floor((k * (span - 1)) / 3)) };
  }
  const sessions = days.sessionsOf(candle.time);
  let trading = 0;
  for (let index = 0; index < sessions.length; index += 2) trading += sessions[index + 1]! - sessions[index]!;
  const at = [0, 1, 2, 3].map((k) => {
    let offset = Math.floor((k * (trading - 1)) / 3);
    for (let index = 0; index < sessions.length; index += 2) {
      const length = sessions[index + 1]! - sessions[index]!;
      if (offset < length) return sessions[index]! + offset;
      offset -= length;
    }
    return sessions[sessions.length - 1]! - 1;
  });
  return { start: sessions[0]!, end: sessions[sessions.length - 1]!, at };
}

/** The end of the regular session an instant lies in; outside the sessions, the end of its market day. */
function sessionEndOf(time: number, days: MarketDays): number {
  const sessions = days.sessionsOf(time);
  for (let index = 0; index < sessions.length; index += 2)
    if (time >= sessions[index]! && time < sessions[index + 1]!) return sessions[index + 1]!;
  return days.dayEnd(time);
}

/** All series' ticks merged in time order (ties: the earlier series first); `path`: see MarketReplayOptions. */
export function* replayTicks(series: readonly (readonly Candle[])[], path: IntrabarPath = 'bar-direction'): Generator<ReplayTick> {
  const sources = series.map((candles) => symbolTicks(candles, path));
  const heads = sources.map((source) => source.next());
  for (;;) {
    let chosen = -1;
    for (let index = 0; index < heads.length; index++) {
      const head = heads[index]!;
      if (head.done === true) continue;
      if (chosen < 0 || head.value.time < (heads[chosen]!.value as ReplayTick).time) chosen = index;
    }
    if (chosen < 0) return;
    const tick = heads[chosen]!.value as ReplayTick;
    heads[chosen] = sources[chosen]!.next();
    yield tick;
  }
}

/** Real milliseconds between two ticks at `speed`: their market-time gap less the idle time between their bars. */
export function pacingDelay(previous: ReplayTick, next: ReplayTick, speed: number): number {
  const idle = Math.max(0, next.barStart - previous.barEnd);
  return Math.max(0, next.time - previous.time - idle) / speed;
}

export interface MarketReplayOptions {
  readonly series: readonly (readonly Candle[])[];
  readonly clock: Clock;
  /** Market milliseconds per real millisecond (60: a market minute per second). */
  readonly speed?: number;
  /** Which extreme of a bar its ticks reach first: the venue's intrabar path (default bar-direction). */
  readonly path?: IntrabarPath;
}

export type TickListener = (tick: ReplayTick) => void;

/** A promise holds the replay back until it settles; undefined lets it go on now. */
export interface ReplayGate {
  /** Asked before each tick goes out, with whether it ends a bar under way (its time is at or past the end of a bar whose ticks went out). */
  beforeTick(next: ReplayTick, endsBar: boolean): Promise<void> | undefined;
  /** Asked once after the last tick, with the latest end of the bars it left under way: the data's end ends them. */
  atEnd(barsEnd: number): Promise<void> | undefined;
}

export class MarketReplay {
  private readonly ticks: Generator<ReplayTick>;
  private readonly listeners = new Set<TickListener>();
  private readonly endListeners = new Set<() => void>();
  private readonly clock: Clock;
  private readonly speed: number;
  /** The next tick to deliver (read ahead, so `done` is known as soon as the last tick is out). */
  private pending: ReplayTick | undefined;
  private last: ReplayTick | undefined;
  private timer: TimerHandle | undefined;
  private running = false;
  private gate: ReplayGate | undefined;
  /** A gate is holding the next tick (or the end) back. */
  private gating = false;
  /** The end of the data has passed the gate. */
  private ended = false;
  /** The end of each symbol's bar under way, and the earliest of them. */
  private readonly underway = new Map<SecuritySymbol, number>();
  private earliestEnd = Number.POSITIVE_INFINITY;

  constructor(options: MarketReplayOptions) {
    if (!(options.speed === undefined || options.speed > 0)) throw new RangeError(`replay speed must be positive, got ${options.speed}`);
    this.ticks = replayTicks(options.series, options.path);
    this.clock = options.clock;
    this.speed = options.speed ?? 1;
    this.pending = this.pull();
  }

  onTick(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Called once the end of the data has passed the gate (after the last bars ended). */
  onEnd(listener: () => void): () => void {
    this.endListeners.add(listener);
    return () => void this.endListeners.delete(listener);
  }

  /** Market time of the latest tick delivered. */
  get marketTime(): number | undefined {
    return this.last?.time;
  }

  /** Every tick has gone out (the end may still be held at the gate). */
  get exhausted(): boolean {
    return this.pending === undefined;
  }

  /** Every tick has gone out and the end of the data has passed the gate. */
  get done(): boolean {
    return this.pending === undefined && this.ended;
  }

  /** Market time of the next tick to deliver; undefined when the data is exhausted. */
  get nextTickTime(): number | undefined {
    return this.pending?.time;
  }

  /** The earliest end of the bars under way (bars whose ticks went out, not yet ended by a later tick); infinity without one. */
  get barsEnd(): number {
    return this.earliestEnd;
  }

  /** The latest end of the bars under way; -infinity without one. */
  get lastBarsEnd(): number {
    let end = Number.NEGATIVE_INFINITY;
    for (const barEnd of this.underway.values()) end = Math.max(end, barEnd);
    return end;
  }

  /** True when the next tick ends a bar under way: its time is at or past the end of a bar whose ticks went out. */
  get nextEndsBar(): boolean {
    return this.pending !== undefined && this.pending.time >= this.earliestEnd;
  }

  /** Sets (or with undefined removes) the gate the paced replay and next() pass each tick through. */
  setGate(gate: ReplayGate | undefined): void {
    this.gate = gate;
  }

  /** Delivers the next tick now, past any gate, the data's end too (manual stepping); undefined when the data is exhausted. */
  step(): ReplayTick | undefined {
    const tick = this.pending;
    if (tick !== undefined) this.deliver(tick);
    if (this.pending === undefined) this.end();
    return tick;
  }

  /**
   * Delivers the next tick once the gate lets it go (manual stepping); once the data is exhausted, passes its
   * end through the gate and gives undefined.
   */
  async next(): Promise<ReplayTick | undefined> {
    const tick = this.pending;
    if (tick === undefined) {
      if (!this.ended) {
        const held = this.gate?.atEnd(this.lastBarsEnd);
        if (held !== undefined) await held;
      }
      this.end();
      return undefined;
    }
    const held = this.gate?.beforeTick(tick, this.nextEndsBar);
    if (held !== undefined) await held;
    this.deliver(tick);
    return tick;
  }

  /** Paces the remaining ticks on the clock; ticks due at the same instant go out together. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.pump();
  }

  stop(): void {
    this.running = false;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private pump(): void {
    this.timer = undefined;
    while (this.running && !this.gating && this.pending !== undefined) {
      const delay = this.last === undefined ? 0 : pacingDelay(this.last, this.pending, this.speed);
      if (delay > 0) {
        this.timer = this.clock.setTimeout(() => {
          if (this.passGate()) this.deliver(this.pending!);
          this.pump();
        }, delay);
        return;
      }
      if (!this.passGate()) return;
      this.deliver(this.pending);
    }
    if (this.running && !this.gating && this.pending === undefined) this.passEnd();
  }

  /** Ends the data once the gate lets it (the bars under way end with it). */
  private passEnd(): void {
    if (this.ended) return;
    const held = this.gate?.atEnd(this.lastBarsEnd);
    if (held === undefined) {
      this.end();
      return;
    }
    this.gating = true;
    const resume = (): void => {
      this.gating = false;
      this.end();
    };
    held.then(resume, resume);
  }

  private end(): void {
    if (this.ended || this.pending !== undefined) return;
    this.ended = true;
    for (const listener of this.endListeners) listener();
  }

  /** True when the next tick may go out now; else the gate holds it and the pump resumes once it lets go. */
  private passGate(): boolean {
    const held = this.gate?.beforeTick(this.pending!, this.nextEndsBar);
    if (held === undefined) return true;
    this.gating = true;
    const resume = (): void => {
      this.gating = false;
      if (!this.running) return;
      this.deliver(this.pending!);
      this.pump();
    };
    held.then(resume, resume);
    return false;
  }

  private deliver(tick: ReplayTick): void {
    this.pending = this.pull();
    this.last = tick;
    this.trackBar(tick);
    for (const listener of this.listeners) listener(tick);
  }

  /** Keeps the earliest end of the bars under way: a tick at or past it ends those bars. */
  private trackBar(tick: ReplayTick): void {
    if (tick.time >= this.earliestEnd) {
      this.earliestEnd = Number.POSITIVE_INFINITY;
      for (const [symbol, end] of this.underway) {
        if (end <= tick.time) this.underway.delete(symbol);
        else this.earliestEnd = Math.min(this.earliestEnd, end);
      }
    }
    this.underway.set(tick.symbol, tick.barEnd);
    this.earliestEnd = Math.min(this.earliestEnd, tick.barEnd);
  }

  private pull(): ReplayTick | undefined {
    const result = this.ticks.next();
    return result.done === true ? undefined : result.value;
  }
}
