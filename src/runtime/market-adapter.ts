// The MarketData port as strategies see it: the same streams, with each candle and quote also remembered on
// the price board (for valuing market orders). Per bar this is one reference write, nothing allocated.
// History (for warm-ups) passes through untouched: old bars must not value today's orders.
import { Observable } from 'rxjs';
import type { Candle, Period, Quote, SecuritySymbol } from '../domain/index.js';
import type { PriceBoard, PriceSlot } from '../execution/price-board.js';
import type { MarketData } from '../feeds/market-data.js';

/** The candle handed to a strategy last and its place in its stream (0-based), for naming the bar it failed on. */
export interface HandedBar {
  candle: Candle | undefined;
  index: number;
}

export class MarketAdapter {
  constructor(
    private readonly marketData: MarketData,
    private readonly prices: PriceBoard,
  ) {}

  /** `handed`, when given, is told each candle as it goes to the subscriber (in this layer: no extra one per bar). */
  candles(symbol: SecuritySymbol, period: Period, handed?: HandedBar): Observable<Candle> {
    const source = this.marketData.candles(symbol, period);
    const slot = this.prices.slot(symbol);
    if (handed === undefined)
      return remember(source, slot, (into, candle) => {
        into.candle = candle;
      });
    return new Observable<Candle>((subscriber) => {
      let index = -1;
      return source.subscribe({
        next(candle) {
          slot.candle = candle;
          index += 1;
          handed.candle = candle;
          handed.index = index;
          subscriber.next(candle);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
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
