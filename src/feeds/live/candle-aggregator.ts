// Builds one symbol's bars of one period from quote pushes: OHLC from last-done prices, volume and turnover
// as differences of the day's cumulative figures (reset on a new market-local day). A bar can also take the
// service's candle of it (the bar under way when the stream starts, or after a reconnect): those figures count
// every tick the service pushed before answering, so such ticks (`covered`) add no volume again. Pure: the
// caller decides when a bar is due (see live-candles.ts) and which ticks an answer covered.
import type { Candle } from '../../domain/candle.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import type { Period } from '../../domain/period.js';
import type { Quote } from '../../domain/quote.js';
import { marketOf, type Market, type SecuritySymbol } from '../../domain/symbol.js';
import { localDate } from '../../domain/time-zone.js';
import { barWindow } from './bar-window.js';

interface OpenBar {
  start: number;
  end: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Day-cumulative volume and turnover just before this bar's first tick. */
  volumeBase: number;
  turnoverBase: number;
  volume: number;
  turnover: number;
  /** The volume and turnover so far are the service's (from its candle of this bar). */
  fromService: boolean;
  /** The bases are still to be found from the next tick (none since the service's figures came). */
  rebase: boolean;
}

export class CandleAggregator {
  private readonly market: Market;
  private readonly zone: string;
  private bar: OpenBar | undefined;
  private lastEmitted = Number.NEGATIVE_INFINITY;
  private day: string | undefined;
  private dayVolume = 0;
  private dayTurnover = 0;

  constructor(
    readonly symbol: SecuritySymbol,
    readonly period: Period,
  ) {
    this.market = marketOf(symbol);
    this.zone = timeZoneOf(this.market);
  }

  /** End of the open bar (epoch ms, market time), if one is open. */
  get openBarEnd(): number | undefined {
    return this.bar?.end;
  }

  get lastEmittedStart(): number {
    return this.lastEmitted;
  }

  /** Start of the open bar, or of the last emitted one. */
  get latestStart(): number {
    return this.bar?.start ?? this.lastEmitted;
  }

  /**
   * Adds one tick; returns the bar it closed (a tick of a later period closes the open bar). `covered`: the
   * tick came before the service's answer that the open bar's figures are from, so they already count it.
   */
  add(quote: Quote, covered = false): Candle | undefined {
    const price = quote.lastDone.toNumber();
    const turnover = quote.turnover.toNumber();
    const date = localDate(quote.timestamp, this.zone);
    if (date !== this.day) {
      // The day's cumulative figures restart; the very first tick seen may be mid-day, so count back from it.
      const first = this.day === undefined;
      this.day = date;
      this.dayVolume = first ? quote.volume - quote.currentVolume : 0;
      this.dayTurnover = first ? turnover - quote.currentTurnover.toNumber() : 0;
      // A bar open across the day (a week or month bar) keeps what it counted so far: its base moves to the
      // new day's figures, less that.
      if (this.bar !== undefined && !first) {
        this.bar.volumeBase = this.dayVolume - this.bar.volume;
        this.bar.turnoverBase = this.dayTurnover - this.bar.turnover;
      }
    }
    const window = barWindow(quote.timestamp, this.period, this.market);
    if (window.start <= this.lastEmitted || (this.bar !== undefined && window.start < this.bar.start)) return undefined;
    let closed: Candle | undefined;
    if (this.bar !== undefined && window.start > this.bar.start) closed = this.close();
    if (this.bar === undefined) {
      this.bar = {
        start: window.start,
        end: window.end,
        open: price,
        high: price,
        low: price,
        close: price,
        volumeBase: this.dayVolume,
        turnoverBase: this.dayTurnover,
        volume: 0,
        turnover: 0,
        fromService: false,
        rebase: false,
      };
    }
    const bar = this.bar;
    if (bar.fromService && (covered || bar.rebase)) {
      // The bases that keep the service's figures: with this tick in them when it covered the tick, else before it.
      bar.rebase = false;
      bar.volumeBase = quote.volume - (covered ? 0 : quote.currentVolume) - bar.volume;
      bar.turnoverBase = turnover - (covered ? 0 : quote.currentTurnover.toNumber()) - bar.turnover;
    }
    bar.end = Math.max(bar.end, window.end);
    bar.high = Math.max(bar.high, price);
    bar.low = Math.min(bar.low, price);
    bar.close = price;
    bar.volume = Math.max(0, quote.volume - bar.volumeBase);
    bar.turnover = Math.max(0, turnover - bar.turnoverBase);
    this.dayVolume = quote.volume;
    this.dayTurnover = turnover;
    return closed;
  }

  /** Closes and returns the open bar. */
  close(): Candle | undefined {
    const bar = this.bar;
    if (bar === undefined) return undefined;
    this.bar = undefined;
    this.lastEmitted = bar.start;
    return {
      symbol: this.symbol,
      period: this.period,
      time: bar.start,
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      volume: bar.volume,
      turnover: bar.turnover,
    };
  }

  /**
   * Merges the service's bars fetched as the stream starts or after a reconnect: complete bars we missed are
   * returned for emission (the service's version wins over a partial one of ours), and the bar still forming
   * takes the service's figures so far. `marketNow` decides which bars are complete.
   */
  backfill(candles: readonly Candle[], marketNow: number): Candle[] {
    const emit: Candle[] = [];
    for (const candle of [...candles].sort((a, b) => a.time - b.time)) {
      if (candle.time <= this.lastEmitted) continue;
      const window = barWindow(candle.time, this.period, this.market);
      const ours = this.bar;
      if (window.end <= marketNow) {
        // Ours is partial: the service's bar of the same start replaces it; an older one of ours goes first.
        if (ours !== undefined && ours.start === candle.time) this.bar = undefined;
        else if (ours !== undefined && ours.start < candle.time) emit.push(this.close()!);
        emit.push({ ...candle, symbol: this.symbol, period: this.period });
        this.lastEmitted = candle.time;
        continue;
      }
      if (ours !== undefined && ours.start > candle.time) continue;
      this.bar = {
        start: candle.time,
        end: Math.max(window.end, ours?.start === candle.time ? ours.end : 0),
        open: candle.open,
        high: Math.max(candle.high, ours?.start === candle.time ? ours.high : candle.high),
        low: Math.min(candle.low, ours?.start === candle.time ? ours.low : candle.low),
        close: candle.close,
        volumeBase: 0,
        turnoverBase: 0,
        volume: candle.volume,
        turnover: candle.turnover ?? 0,
        fromService: true,
        rebase: true,
      };
    }
    return emit;
  }
}
