// The stream the walk pushes one symbol's data bars into. Subscribers taking Candles get one Candle per bar,
// made once for all of them and only when one of them listens; bar sinks (operators reading closes) get the
// bar's place in its columns. Each bar reaches the subscribers in the order they subscribed, whatever their
// kind. Like Broadcast, a delivery in progress keeps the list it started with.
import { Observable, type Subscriber } from 'rxjs';
import type { BarSink, BarStream } from '../domain/bar-stream.js';
import type { Candle } from '../domain/candle.js';
import { type CandleColumns, candleAt } from '../feeds/history/candle-columns.js';

/** One subscriber: a Candle subscriber or a bar sink (one shape for both). */
interface Listener {
  readonly subscriber: Subscriber<Candle> | undefined;
  readonly sink: BarSink | undefined;
}

type Ending = { readonly kind: 'complete' } | { readonly kind: 'error'; readonly error: unknown };

interface Listeners {
  /** Replaced, never changed in place. */
  list: readonly Listener[];
  ending: Ending | undefined;
}

export class BarFeed extends Observable<Candle> implements BarStream {
  private readonly listeners: Listeners;

  constructor() {
    const listeners: Listeners = { list: [], ending: undefined };
    super((subscriber) => {
      if (BarFeed.ended(listeners, subscriber)) return undefined;
      const listener: Listener = { subscriber, sink: undefined };
      listeners.list = [...listeners.list, listener];
      return () => BarFeed.remove(listeners, listener);
    });
    this.listeners = listeners;
  }

  subscribeBars(sink: BarSink): { unsubscribe(): void } {
    const listeners = this.listeners;
    if (BarFeed.ended(listeners, sink)) return { unsubscribe: () => undefined };
    const listener: Listener = { subscriber: undefined, sink };
    listeners.list = [...listeners.list, listener];
    return { unsubscribe: () => BarFeed.remove(listeners, listener) };
  }

  /** Whether anyone is subscribed. */
  get observed(): boolean {
    return this.listeners.list.length > 0;
  }

  /** Hands bar `index` of `columns` to every subscriber. */
  push(columns: CandleColumns, index: number): void {
    if (this.listeners.ending !== undefined) return;
    const list = this.listeners.list;
    let candle: Candle | undefined;
    for (let at = 0; at < list.length; at += 1) {
      const listener = list[at]!;
      if (listener.sink !== undefined) listener.sink.bar(columns, index);
      else listener.subscriber!.next((candle ??= candleAt(columns, index)));
    }
  }

  complete(): void {
    this.end({ kind: 'complete' });
  }

  error(error: unknown): void {
    this.end({ kind: 'error', error });
  }

  private end(ending: Ending): void {
    if (this.listeners.ending !== undefined) return;
    this.listeners.ending = ending;
    const list = this.listeners.list;
    this.listeners.list = [];
    for (const listener of list) BarFeed.tell(listener.subscriber ?? listener.sink!, ending);
  }

  /** Tells a late subscriber how the feed ended; false while it runs. */
  private static ended(listeners: Listeners, to: Subscriber<Candle> | BarSink): boolean {
    if (listeners.ending === undefined) return false;
    BarFeed.tell(to, listeners.ending);
    return true;
  }

  private static tell(to: Subscriber<Candle> | BarSink, ending: Ending): void {
    if (ending.kind === 'error') to.error(ending.error);
    else to.complete();
  }

  private static remove(listeners: Listeners, listener: Listener): void {
    listeners.list = listeners.list.filter((candidate) => candidate !== listener);
  }
}
