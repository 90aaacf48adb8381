// The MarketData port as strategies see it: the same streams, with each candle and quote also remembered on
// the price board (for valuing market orders). Per bar this is one reference write, nothing allocated.
// History (for warm-ups) passes through untouched: old bars must not value today's orders.
import { Observable } from 'rxjs';
import type { Candle, Period, Quote, SecuritySymbol } from '../domain/index.js';
import type { PriceBoard, PriceSlot } from '../execution/price-board.js';
import type { MarketData } from '../feeds/market-data.js';

export class MarketAdapter {
  constructor(
    private readonly marketData: MarketData,
    private readonly prices: PriceBoard,
  ) {}

  candles(symbol: SecuritySymbol, period: Period): Observable<Candle> {
    return remember(this.marketData.candles(symbol, period), this.prices.slot(symbol), (slot, candle) => {
      slot.candle = candle;
    });
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
    return remember(this.marketData.quotes(symbol), this.prices.slot(symbol), (slot, quote) => {
      slot.quote = quote;
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
