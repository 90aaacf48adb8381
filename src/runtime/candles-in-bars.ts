// A candle stream with a bar form (domain/bar-stream.ts) built from both: an Observable<Candle> for ordinary
// subscribers, and a function that hands the same bars to bar sinks. The runtime's layers over a backtest
// feed (the market adapter, warm-ups, the bar a strategy was handed) keep the bar form this way.
import { Observable } from 'rxjs';
import { type BarColumns, type BarSink, type BarStream, barStreamOf } from '../domain/bar-stream.js';
import type { Candle } from '../domain/candle.js';
import { operate } from '../strategy/operators/operate.js';

export class CandlesInBars extends Observable<Candle> implements BarStream {
  constructor(
    objects: Observable<Candle>,
    private readonly bars: (sink: BarSink) => { unsubscribe(): void },
  ) {
    super((subscriber) => objects.subscribe(subscriber));
  }

  subscribeBars(sink: BarSink): { unsubscribe(): void } {
    return this.bars(sink);
  }
}

/** Told each bar of a stream before it goes on, in whichever form it goes. */
export interface BarTap {
  candle(candle: Candle): void;
  bar(columns: BarColumns, at: number): void;
}

/** `source` with a tap (made per subscription) told each bar; with a bar form when `source` has one. */
export function tapCandles(source: Observable<Candle>, tap: () => BarTap): Observable<Candle> {
  const objects = new Observable<Candle>((subscriber) => {
    const each = tap();
    return operate(source, subscriber, (candle) => {
      each.candle(candle);
      subscriber.next(candle);
    });
  });
  const bars = barStreamOf(source);
  if (bars === undefined) return objects;
  return new CandlesInBars(objects, (sink) => {
    const each = tap();
    return bars.subscribeBars({
      bar(columns, at) {
        each.bar(columns, at);
        sink.bar(columns, at);
      },
      error: (error) => sink.error(error),
      complete: () => sink.complete(),
    });
  });
}
