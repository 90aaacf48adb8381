// How operators that read only closes subscribe: to the bar form of a stream that has one (a backtest's
// candles, straight from ctx.candles()), so no Candle is made for them; to the stream itself otherwise.
// Either way `onClose` sees the same closes, and what it throws goes downstream as an error.
import type { Observable, Subscriber, TeardownLogic } from 'rxjs';
import { barStreamOf } from '../../domain/bar-stream.js';
import type { Candle } from '../../domain/index.js';
import { operate } from './operate.js';

export type Price = Candle | number;

/** The close of a candle, or the number itself. */
export function closeOf(value: Price): number {
  // `+value` makes both branches a raw float: merged with a tagged `value`, the candle's close would be
  // boxed into a new heap number on every bar.
  return typeof value === 'number' ? +value : value.close;
}

/**
 * Subscribes `downstream` to the closes of `source` through `onClose` (which may emit downstream), told where
 * each close is (`closes[at]`) rather than given it (bench/README.md, "No heap number per bar").
 */
export function subscribeCloses(
  source: Observable<Price>,
  downstream: Subscriber<unknown>,
  onClose: (closes: Float64Array, at: number) => void,
): TeardownLogic {
  const bars = barStreamOf(source);
  if (bars === undefined) {
    const close = new Float64Array(1);
    return operate(source, downstream, (value) => {
      close[0] = closeOf(value);
      onClose(close, 0);
    });
  }
  const subscription = bars.subscribeBars({
    bar: (columns, at) => {
      if (downstream.closed) return;
      try {
        onClose(columns.close, at);
      } catch (error) {
        downstream.error(error);
      }
    },
    error: (error) => downstream.error(error),
    complete: () => downstream.complete(),
  });
  return () => subscription.unsubscribe();
}
