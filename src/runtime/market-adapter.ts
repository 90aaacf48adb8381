// The MarketData port as strategies see it: the same streams, with each candle and quote also remembered on
// the price board (for valuing market orders). Per bar this is one reference write, nothing allocated.
// History (for warm-ups) passes through untouched: old bars must not value today's orders. Given a wall
// clock (live and paper runs), it also notes when the latest value reached the strategies (tick-to-order).
import { Observable } from 'rxjs';
import type { Candle, Clock, Period, Quote, SecuritySymbol } from '../domain/index.js';
import type { PriceBoard, PriceSlot } from '../execution/price-board.js';
import type { MarketData } from '../feeds/market-data.js';
import { operate } from '../strategy/operators/operate.js';

/** The candle handed to a strategy last and its place in its stream (0-based), for naming the bar it failed on. */
export interface HandedBar {
  candle: Candle | undefined;
  index: number;
}

export class MarketAdapter {
  /** Wall time the latest candle or quote was handed to the strategies (only with a wall clock). */
  lastDeliveredAt: number | undefined;

  constructor(
    private readonly marketData: MarketData,
    private readonly prices: PriceBoard,
    private readonly wallClock?: Pick<Clock, 'now'>,
  ) {}

  /** `handed`, when given, is told each candle as it goes to the subscriber (in this layer: no extra one per bar). */
  candles(symbol: SecuritySymbol, period: Period, handed?: HandedBar): Observable<Candle> {
    const source = this.marketData.candles(symbol, period);
    const slot = this.prices.slot(symbol);
    const wall = this.wallClock;
    if (handed === undefined)
      return remember(
        source,
        slot,
        wall === undefined
          ? (into, candle) => {
              into.candle = candle;
            }
          : (into, candle) => {
              into.candle = candle;
              this.lastDeliveredAt = wall.now();
            },
      );
    return new Observable<Candle>((subscriber) => {
      let index = -1;
      return operate(source, subscriber, (candle) => {
        slot.candle = candle;
        if (wall !== undefined) this.lastDeliveredAt = wall.now();
        index += 1;
        handed.candle = candle;
        handed.index = index;
        subscriber.next(candle);
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
    const wall = this.wallClock;
    return remember(this.marketData.quotes(symbol), this.prices.slot(symbol), (slot, quote) => {
      slot.quote = quote;
      if (wall !== undefined) this.lastDeliveredAt = wall.now();
    });
  }
}

function remember<T>(source: Observable<T>, slot: PriceSlot, write: (slot: PriceSlot, value: T) => void): Observable<T> {
  return new Observable<T>((subscriber) =>
    operate(source, subscriber, (value) => {
      write(slot, value);
      subscriber.next(value);
    }),
  );
}
