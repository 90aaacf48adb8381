// The MarketData port as strategies see it: the same streams, with each candle and quote also remembered on
// the price board (for valuing market orders). Per bar this is a few field writes, nothing allocated.
// History (for warm-ups) passes through untouched: old bars must not value today's orders. Given a wall
// clock (live and paper runs), it also notes when the latest value reached the strategies (tick-to-order).
import { Observable } from 'rxjs';
import type { Candle, Clock, Period, Quote, SecuritySymbol } from '../domain/index.js';
import type { BarColumns } from '../domain/bar-stream.js';
import type { PriceBoard } from '../execution/price-board.js';
import type { MarketData } from '../feeds/market-data.js';
import { operate } from '../strategy/operators/operate.js';
import { type BarTap, tapCandles } from './candles-in-bars.js';

/**
 * The bar handed to a strategy last and its place in its stream (0-based), for naming the bar it failed on:
 * a Candle, or (handed in bar form) its place `at` in `columns`.
 */
export interface HandedBar {
  candle: Candle | undefined;
  columns: BarColumns | undefined;
  at: number;
  index: number;
}

/** The symbol, period and start time of the bar handed last; undefined before the first. */
export function handedBarOf(handed: HandedBar): Pick<Candle, 'symbol' | 'period' | 'time'> | undefined {
  const { candle, columns, at } = handed;
  if (candle !== undefined) return candle;
  return columns === undefined ? undefined : { symbol: columns.symbol, period: columns.period, time: columns.time[at]! };
}

/** Notes each bar in `handed`, counting them (one per subscription). */
export function handing(handed: HandedBar): BarTap {
  let index = -1;
  return {
    candle(candle) {
      index += 1;
      handed.candle = candle;
      handed.columns = undefined;
      handed.index = index;
    },
    bar(columns, at) {
      index += 1;
      handed.candle = undefined;
      handed.columns = columns;
      handed.at = at;
      handed.index = index;
    },
  };
}

export class MarketAdapter {
  /** Wall time the latest candle or quote was handed to the strategies (only with a wall clock). */
  lastDeliveredAt: number | undefined;

  constructor(
    private readonly marketData: MarketData,
    private readonly prices: PriceBoard,
    private readonly wallClock?: Pick<Clock, 'now'>,
  ) {}

  /**
   * `handed`, when given, is told each bar as it goes to the subscriber (in this layer: no extra one per
   * bar). A source with a bar form (the backtest's feeds) gives a stream with one too.
   */
  candles(symbol: SecuritySymbol, period: Period, handed?: HandedBar): Observable<Candle> {
    const slot = this.prices.slot(symbol);
    const wall = this.wallClock;
    return tapCandles(this.marketData.candles(symbol, period), () => {
      const hand = handed === undefined ? undefined : handing(handed);
      return {
        candle: (candle) => {
          slot.candle = candle;
          slot.columns = undefined;
          if (wall !== undefined) this.lastDeliveredAt = wall.now();
          hand?.candle(candle);
        },
        bar: (columns, at) => {
          slot.candle = undefined;
          slot.columns = columns;
          slot.at = at;
          if (wall !== undefined) this.lastDeliveredAt = wall.now();
          hand?.bar(columns, at);
        },
      };
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
    const source = this.marketData.quotes(symbol);
    const slot = this.prices.slot(symbol);
    const wall = this.wallClock;
    return new Observable<Quote>((subscriber) =>
      operate(source, subscriber, (quote) => {
        slot.quote = quote;
        if (wall !== undefined) this.lastDeliveredAt = wall.now();
        subscriber.next(quote);
      }),
    );
  }
}
