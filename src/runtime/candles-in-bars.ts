// A candle stream with a bar form (domain/bar-stream.ts) built from both: an Observable<Candle> for ordinary
// subscribers, and a function that hands the same bars to bar sinks. The runtime's layers over a backtest
// feed (the market adapter, warm-ups, the bar a strategy was handed) keep the bar form this way.
import { Observable } from 'rxjs';
import type { BarSink, BarStream } from '../domain/bar-stream.js';
import type { Candle } from '../domain/candle.js';

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
