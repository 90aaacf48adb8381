// When a backtest shows a bar to the strategy: the instant the bar closes, the same instant a live feed
// would emit it (see feeds/live/bar-window.ts). Intraday bars close at their start plus the period, cut at
// the end of the regular session they start in; day bars at the end of the market's last regular session
// that day; week, month, quarter and year bars where the next one starts. Cached per market day, so the
// per-bar cost is a few comparisons.
import type { Candle } from '../domain/candle.js';
import { periodMinutes, type Period } from '../domain/period.js';
import { marketOf, type Market, type SecuritySymbol } from '../domain/symbol.js';
import { barWindow } from '../feeds/live/bar-window.js';
import { MarketDays } from '../sim/venue/market-days.js';

export class BarCloseTimes {
  private readonly periodMs: number | undefined;
  private readonly markets = new Map<Market, MarketDays>();
  private readonly symbols = new Map<SecuritySymbol, MarketDays>();

  constructor(readonly period: Period) {
    const minutes = periodMinutes(period);
    this.periodMs = minutes === undefined ? undefined : minutes * 60_000;
  }

  /** The close instant (epoch ms) of a bar of this period starting at `candle.time`. */
  closeOf(candle: Pick<Candle, 'symbol' | 'time'>): number {
    const start = candle.time;
    if (this.period !== 'day' && this.periodMs === undefined) return barWindow(start, this.period, marketOf(candle.symbol)).end;
    const days = this.daysOf(candle.symbol);
    const sessions = days.sessionsOf(start);
    if (this.periodMs === undefined) return Math.max(sessions[sessions.length - 1]!, start + 1);
    const end = start + this.periodMs;
    for (let index = 0; index < sessions.length; index += 2) {
      if (start >= sessions[index]! && start < sessions[index + 1]!) return Math.min(end, sessions[index + 1]!);
    }
    return Math.min(end, days.dayEnd(start));
  }

  private daysOf(symbol: SecuritySymbol): MarketDays {
    let days = this.symbols.get(symbol);
    if (days !== undefined) return days;
    const market = marketOf(symbol);
    days = this.markets.get(market) ?? new MarketDays(market);
    this.markets.set(market, days);
    this.symbols.set(symbol, days);
    return days;
  }
}
