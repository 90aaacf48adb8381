// The MarketData port over candle history: one stream per symbol that the backtest engine feeds with each
// closed data bar. Coarser periods are built from the data (resample.ts); backtests have no quotes, so
// quote streams never emit (they complete when the run ends).
import { throwError, type Observable } from 'rxjs';
import type { Candle } from '../domain/candle.js';
import type { Clock } from '../domain/clock.js';
import { InvalidInputError } from '../domain/errors.js';
import type { Period } from '../domain/period.js';
import type { Quote } from '../domain/quote.js';
import type { SecuritySymbol } from '../domain/symbol.js';
import { Broadcast } from '../execution/broadcast.js';
import { BarFeed } from './bar-feed.js';
import type { MarketData } from '../feeds/market-data.js';
import type { HistorySource } from './history.js';
import { resample, resampleProblem } from './resample.js';

export class BacktestMarketData implements MarketData {
  private readonly feeds = new Map<SecuritySymbol, BarFeed>();
  private readonly quoteFeeds = new Map<SecuritySymbol, Broadcast<Quote>>();
  private readonly asked = new Set<SecuritySymbol>();
  /** Bars before the run's first, for warm-ups; absent when the run starts at the data's first bar. */
  readonly history?: HistorySource;
  /** Whether a strategy asked for a coarser period than the data's (bars built on the clock, see resample). */
  resampling = false;

  /**
   * `period`: the period of the data bars fed in; `history`: the bars before them, if any; `clock`: the run's,
   * on which a coarser bar no data bar closes is emitted when its window ends.
   */
  constructor(
    readonly period: Period,
    symbols: readonly SecuritySymbol[],
    history?: HistorySource,
    private readonly clock?: Clock,
  ) {
    for (const symbol of symbols) this.feeds.set(symbol, new BarFeed());
    if (history !== undefined) this.history = history;
  }

  /** The stream the engine pushes `symbol`'s closed data bars into. */
  feed(symbol: SecuritySymbol): BarFeed {
    const feed = this.feeds.get(symbol);
    if (feed === undefined) throw new Error(`no feed for ${symbol}`);
    return feed;
  }

  candles(symbol: SecuritySymbol, period: Period): Observable<Candle> {
    this.asked.add(symbol);
    const feed = this.feeds.get(symbol);
    if (feed === undefined) {
      return throwError(
        () =>
          new InvalidInputError(`no candle data for ${symbol} in this backtest (it has ${[...this.feeds.keys()].join(', ')})`, 'symbols'),
      );
    }
    // The stream itself (not a read-only view: one subscriber layer per bar less, and its bar form kept):
    // the runtime's market adapter is what strategies see.
    if (period === this.period) return feed;
    const problem = resampleProblem(this.period, period);
    if (problem !== undefined) return throwError(() => new InvalidInputError(`${symbol}: ${problem}`, 'period'));
    this.resampling = true;
    return feed.pipe(resample(symbol, this.period, period, this.clock));
  }

  /** The symbols of the data whose candles or quotes no one asked for (loaded, and never read). */
  get unreadSymbols(): readonly SecuritySymbol[] {
    return [...this.feeds.keys()].filter((symbol) => !this.asked.has(symbol) && !this.quoteFeeds.has(symbol));
  }

  /** The symbols whose quotes a strategy asked for (they never came: see the top of this file). */
  get quoteSymbols(): readonly SecuritySymbol[] {
    return [...this.quoteFeeds.keys()];
  }

  quotes(symbol: SecuritySymbol): Observable<Quote> {
    let feed = this.quoteFeeds.get(symbol);
    if (feed === undefined) {
      feed = new Broadcast<Quote>();
      this.quoteFeeds.set(symbol, feed);
    }
    return feed.asObservable();
  }

  /** Ends every stream (the data is exhausted). */
  complete(): void {
    for (const feed of this.feeds.values()) feed.complete();
    for (const feed of this.quoteFeeds.values()) feed.complete();
  }
}
