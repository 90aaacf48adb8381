// The MarketData port for live and paper runs: quotes straight from the shared quote connection, candles of
// any period built from them (see live-candles.ts). Streams are shared per symbol and period, so many
// strategies on one symbol cost one subscription and one aggregator. History (for warm-ups) comes from the
// service's history candlesticks, closed bars only.
import { share, tap, type Observable } from 'rxjs';
import type { Candle } from '../../domain/candle.js';
import type { Clock } from '../../domain/clock.js';
import type { Period } from '../../domain/period.js';
import type { Quote } from '../../domain/quote.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { Logger } from '../../log/logger.js';
import type { MarketData } from '../market-data.js';
import { latestClosedBars } from './history-bars.js';
import { closeGraceMs, liveCandles } from './live-candles.js';
import type { LiveQuoteSource } from './live-source.js';
import { MarketTime } from './market-time.js';

export interface LiveMarketDataOptions {
  readonly clock: Clock;
  readonly graceMs?: number;
  readonly dayGraceMs?: number;
  /**
   * `clock` is the market clock of an in-process replay that keeps in step with this run (sim/server/lockstep.ts):
   * market time is the clock's own, and a bar closes at its end exactly, without grace, since the replay has
   * delivered every tick of a bar (and waited for them to be handled) before its time reaches the bar's end.
   */
  readonly lockstep?: boolean;
  readonly extendedHours?: boolean;
  readonly logger?: Logger;
}

export class LiveMarketData implements MarketData {
  /** Market time as estimated from the newest quote (≈ the clock live; the replay's time in a simulator). */
  readonly marketTime: MarketTime;
  private readonly candleStreams = new Map<string, Observable<Candle>>();
  private readonly quoteStreams = new Map<SecuritySymbol, Observable<Quote>>();

  private readonly options: LiveMarketDataOptions;

  constructor(
    private readonly source: LiveQuoteSource,
    options: LiveMarketDataOptions,
  ) {
    this.options = options.lockstep === true ? { ...options, graceMs: 0, dayGraceMs: 0 } : options;
    this.marketTime = new MarketTime(options.clock, options.lockstep !== true);
  }

  quotes(symbol: SecuritySymbol): Observable<Quote> {
    let stream = this.quoteStreams.get(symbol);
    if (stream === undefined) {
      stream = this.source.quotes([symbol]).pipe(
        tap((quote) => this.marketTime.observe(quote.timestamp)),
        share(),
      );
      this.quoteStreams.set(symbol, stream);
    }
    return stream;
  }

  candles(symbol: SecuritySymbol, period: Period): Observable<Candle> {
    const key = `${symbol}|${period}`;
    let stream = this.candleStreams.get(key);
    if (stream === undefined) {
      stream = liveCandles(this.source, symbol, period, { ...this.options, marketTime: this.marketTime }).pipe(share());
      this.candleStreams.set(key, stream);
    }
    return stream;
  }

  history(symbol: SecuritySymbol, period: Period, count: number): Promise<readonly Candle[]> {
    return latestClosedBars(this.source, symbol, period, count, {
      now: this.marketTime.now(),
      graceMs: closeGraceMs(period, this.options),
      ...(this.options.extendedHours === undefined ? {} : { extendedHours: this.options.extendedHours }),
    });
  }
}
