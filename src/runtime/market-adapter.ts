// The MarketData port as strategies see it: the same streams, with each candle and quote also remembered on
// the price board (for valuing market orders). Per bar this is one reference write, nothing allocated.
// History (for warm-ups) passes through untouched: old bars must not value today's orders. Given a wall
// clock (live and paper runs), it also notes when the latest value reached the strategies (tick-to-order).
import { Observable } from 'rxjs';
import type { Candle, Clock, Period, Quote, SecuritySymbol } from '../domain/index.js';
import type { PriceBoard, PriceSlot } from '../execution/price-board.js';
import type { MarketData } from '../feeds/market-data.js';

export class MarketAdapter {
  /** Wall time the latest candle or quote was handed to the strategies (only with a wall clock). */
  lastDeliveredAt: number | undefined;

  constructor(
    private readonly marketData: MarketData,
    private readonly prices: PriceBoard,
    private readonly wallClock?: Pick<Clock, 'now'>,
  ) {}

  candles(symbol: SecuritySymbol, period: Period): Observable<Candle> {
    const wall = this.wallClock;
    return remember(
      this.marketData.candles(symbol, period),
      this.prices.slot(symbol),
      wall === undefined
        ? (slot, candle) => {
            slot.candle = candle;
          }
        : (slot, candle) => {
            slot.candle = candle;
            this.lastDeliveredAt = wall.now();
          },
    );
  }

  /** False for market data without history (backtests): strategies start at the first bar. */
  get hasHistory(): boolean {
    return this.marketData.history !== undefined;
  }

  history(symbol: SecuritySymbol, period: Period, count: number): Promise<readonly Candle[]> {
    if (this.marketData.history === undefined) return Promise.reject(new Error('this market data has no history'));
    return this.marketData.history(symbol, period, count);
  }

  quotes(symbol: SecuritySymbol): Observable<Quote> {
    const wall = this.wallClock;
    return remember(this.marketData.quotes(symbol), this.prices.slot(symbol), (slot, quote) => {
      slot.quote = quote;
      if (wall !== undefined) this.lastDeliveredAt = wall.now();
    });
  }
}

function remember<T>(source: Observable<T>, slot: PriceSlot, write: (slot: PriceSlot, value: T) => void): Observable<T> {
  return new Observable<T>((subscriber) =>
    source.subscribe({
      next(value) {
        write(slot, value);
        subscriber.next(value);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }),
  );
}
