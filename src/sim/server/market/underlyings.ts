// What the generated derivatives and indexes read about a replayed security: its price now and the day's
// figures (from the quote board), its daily closes and historical volatility (from the candles the replay has
// reached), and the market date. Nothing here looks past the replay's current tick.
import type { Clock } from '../../../domain/clock.js';
import type { SecuritySymbol } from '../../../domain/symbol.js';
import type { CandleStore } from './candle-store.js';
import type { QuoteBoard, SymbolQuote } from './quote-board.js';

/** Annualised volatility assumed while there are fewer than two daily returns to measure. */
export const DEFAULT_VOLATILITY = 0.25;
const VOLATILITY_DAYS = 20;
const TRADING_DAYS_PER_YEAR = 252;

export interface UnderlyingView {
  readonly symbol: SecuritySymbol;
  readonly quote: SymbolQuote;
  readonly spot: number;
  readonly prevClose: number;
  /** yyyymmdd of the market day now. */
  readonly dayKey: number;
  /** Epoch ms of the last tick. */
  readonly time: number;
}

export class Underlyings {
  private readonly volatilities = new Map<string, number>();

  constructor(
    readonly board: QuoteBoard,
    readonly candles: CandleStore,
    readonly marketClock: Clock,
    readonly nameOf: (symbol: SecuritySymbol) => string,
  ) {}

  get symbols(): readonly SecuritySymbol[] {
    return this.candles.symbols;
  }

  /** The security as it trades now; undefined before its first tick. */
  view(symbol: SecuritySymbol): UnderlyingView | undefined {
    const quote = this.board.get(symbol);
    if (quote === undefined) return undefined;
    return {
      symbol,
      quote,
      spot: quote.tick.price,
      prevClose: quote.prevClose,
      dayKey: this.dayKey(symbol),
      time: quote.tick.time,
    };
  }

  /** yyyymmdd of the security's market date at the market time now. */
  dayKey(symbol: SecuritySymbol): number {
    return this.board.marketDays(symbol).dayKey(this.marketClock.now());
  }

  /** The price strikes are laid around: the previous close (stable through a day), else the last bar's close. */
  referencePrice(symbol: SecuritySymbol): number | undefined {
    const quote = this.board.get(symbol);
    if (quote !== undefined) return quote.prevClose;
    const series = this.candles.series(symbol);
    return series === undefined ? undefined : this.candles.latest(symbol, series.period, 1)?.[0]?.close;
  }

  /** Closes of the last `count` market days reached (today's close so far last). */
  dailyCloses(symbol: SecuritySymbol, count: number): number[] {
    return (this.candles.latest(symbol, 'day', count) ?? []).map((bar) => bar.close);
  }

  /** Closes of the last `count` complete market days before today. */
  closesBeforeToday(symbol: SecuritySymbol, count: number): number[] {
    const days = this.board.marketDays(symbol);
    const today = this.dayKey(symbol);
    const bars = (this.candles.latest(symbol, 'day', count + 1) ?? []).filter((bar) => days.dayKey(bar.time) < today);
    return bars.slice(-count).map((bar) => bar.close);
  }

  /**
   * Annualised standard deviation of the daily log returns of the last 20 complete days (DEFAULT_VOLATILITY with
   * fewer than two), fixed for the day.
   */
  historicalVolatility(symbol: SecuritySymbol): number {
    const key = `${symbol}:${this.dayKey(symbol)}`;
    const cached = this.volatilities.get(key);
    if (cached !== undefined) return cached;
    const closes = this.closesBeforeToday(symbol, VOLATILITY_DAYS + 1);
    const returns = closes.slice(1).map((close, index) => Math.log(close / closes[index]!));
    let volatility = DEFAULT_VOLATILITY;
    if (returns.length >= 2) {
      const mean = returns.reduce((sum, value) => sum + value, 0) / returns.length;
      const variance = returns.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (returns.length - 1);
      volatility = Math.max(0.05, Math.sqrt(variance * TRADING_DAYS_PER_YEAR));
    }
    this.volatilities.set(key, volatility);
    return volatility;
  }
}
