// When a backtest shows a bar to the strategy: the instant the bar closes, the same instant a live feed
// would emit it (see feeds/live/bar-window.ts). Intraday bars close at their start plus the period, cut at
// the end of the regular session they start in; day bars at the end of the market's last regular session
// that day; week, month, quarter and year bars where the next one starts. Market days are cached, and each
// symbol's closes remember the session of its last bar, so a bar inside that session costs one comparison.
import type { Candle } from '../domain/candle.js';
import { periodMinutes, type Period } from '../domain/period.js';
import { marketOf, type Market, type SecuritySymbol } from '../domain/symbol.js';
import { barWindow } from '../feeds/live/bar-window.js';
import { MarketDays } from '../sim/venue/market-days.js';

export class BarCloseTimes {
  private readonly periodMs: number | undefined;
  private readonly markets = new Map<Market, MarketDays>();
  private readonly symbols = new Map<SecuritySymbol, SymbolBarCloses>();

  /**
   * `remember`: keep each series' close instants once computed, for walks that go over the same columns
   * again (research trials walk one data set hundreds of times). Costs 8 bytes a bar.
   */
  constructor(
    readonly period: Period,
    private readonly remember = false,
  ) {
    const minutes = periodMinutes(period);
    this.periodMs = minutes === undefined ? undefined : minutes * 60_000;
  }

  /** The close instant (epoch ms) of a bar of this period starting at `candle.time`. */
  closeOf(candle: Pick<Candle, 'symbol' | 'time'>): number {
    const closes = this.of(candle.symbol);
    closes.closeBar(candle);
    return closes.lastClose;
  }

  /** The closes of one symbol's bars (a backtest keeps one per series instead of looking it up per bar). */
  of(symbol: SecuritySymbol): SymbolBarCloses {
    let closes = this.symbols.get(symbol);
    if (closes !== undefined) return closes;
    const market = marketOf(symbol);
    let days = this.markets.get(market);
    if (days === undefined) {
      days = new MarketDays(market);
      this.markets.set(market, days);
    }
    closes = new SymbolBarCloses(this.period, this.periodMs, market, days, this.remember);
    this.symbols.set(symbol, closes);
    return closes;
  }
}

export class SymbolBarCloses {
  /** The close instant (epoch ms) of the bar last given to `closeBar`. */
  lastClose = 0;

  /** The regular session [begin, end) the last intraday bar started in; empty at first. */
  private sessionBegin = 0;
  private sessionEnd = 0;
  /** The market day [dayStart, dayEnd) of the last bar endsMarketDay was asked about (NaN: none yet). */
  private dayStart = Number.NaN;
  private dayEnd = Number.NaN;

  /** The close instants of the bars of `rememberedTimes` (NaN where not yet computed), when remembering. */
  private rememberedTimes: Float64Array | undefined;
  private remembered: Float64Array | undefined;

  constructor(
    private readonly period: Period,
    private readonly periodMs: number | undefined,
    private readonly market: Market,
    private readonly days: MarketDays,
    private readonly remember = false,
  ) {}

  /**
   * Sets `lastClose` to the close instant of this symbol's bar `bar`. An object in and a field out rather
   * than a float each way: a float passed to or returned from a call the compiler does not inline is boxed,
   * a new heap number per bar on the backtest's hot path.
   */
  closeBar(bar: Pick<Candle, 'time'>): void {
    this.closeAt(bar.time);
  }

  /** closeBar of the bar starting at `times[index]` (the walk's columns). */
  closeBarAt(times: Float64Array, index: number): void {
    if (!this.remember) {
      this.closeAt(times[index]!);
      return;
    }
    if (times !== this.rememberedTimes) {
      this.rememberedTimes = times;
      this.remembered = new Float64Array(times.length).fill(Number.NaN);
    }
    const remembered = this.remembered!;
    const known = remembered[index]!;
    if (!Number.isNaN(known)) {
      this.lastClose = known;
      return;
    }
    this.closeAt(times[index]!);
    remembered[index] = this.lastClose;
  }

  /**
   * Whether the bar at `times[index]` is the last of its market day in the data (intraday bars only): an
   * order decided on it belongs to the next market day, as one decided on a full day's closing bar does,
   * also on a half day whose bars end early.
   */
  endsMarketDay(times: Float64Array, index: number): boolean {
    if (this.periodMs === undefined) return false;
    if (index + 1 >= times.length) return true;
    const time = times[index]!;
    // Most bars fall in the day of the bar before: MarketDays is asked only on a new day.
    if (!(time >= this.dayStart && time < this.dayEnd)) this.learnDay(time);
    return times[index + 1]! >= this.dayEnd;
  }

  private learnDay(time: number): void {
    const day = this.days.dayOf(time);
    this.dayStart = day.start;
    this.dayEnd = day.end;
  }

  private closeAt(start: number): void {
    const periodMs = this.periodMs;
    if (periodMs !== undefined && start >= this.sessionBegin && start < this.sessionEnd) {
      this.lastClose = Math.min(start + periodMs, this.sessionEnd);
      return;
    }
    if (this.period !== 'day' && periodMs === undefined) {
      this.lastClose = barWindow(start, this.period, this.market).end;
      return;
    }
    if (periodMs === undefined) {
      this.lastClose = this.days.dayBarClose(start);
      return;
    }
    const sessions = this.days.sessionsOf(start);
    for (let index = 0; index < sessions.length; index += 2) {
      if (start >= sessions[index]! && start < sessions[index + 1]!) {
        this.sessionBegin = sessions[index]!;
        this.sessionEnd = sessions[index + 1]!;
        this.lastClose = Math.min(start + periodMs, this.sessionEnd);
        return;
      }
    }
    this.lastClose = Math.min(start + periodMs, this.days.dayEnd(start));
  }
}
