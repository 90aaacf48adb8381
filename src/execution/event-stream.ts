// The runtime's events: a Broadcast whose listeners may take some types only. An event of a type nobody
// takes is not built at all: a backtest's listener takes fills and denials, and its orders would otherwise
// build four more events each that no one reads.
import type { Subscription } from 'rxjs';
import { Broadcast } from './broadcast.js';
import type { RuntimeEvent, RuntimeEventType } from './events.js';

export class EventStream extends Broadcast<RuntimeEvent> {
  /** Listeners of some types only, per type; `listen` subscribes them as the stream's other subscribers are. */
  private readonly listening = new Map<RuntimeEventType, number>();
  private typed = 0;

  /** Whether anyone takes events of `type`: a subscriber of the whole stream, or a listener of that type. */
  wants(type: RuntimeEventType): boolean {
    return this.subscriberCount > this.typed || (this.listening.get(type) ?? 0) > 0;
  }

  /** Calls `listener` with the events of `types` only, until the subscription ends. */
  listen(types: readonly RuntimeEventType[], listener: (event: RuntimeEvent) => void): Subscription {
    const wanted = new Set(types);
    for (const type of wanted) this.listening.set(type, (this.listening.get(type) ?? 0) + 1);
    this.typed += 1;
    const subscription = this.subscribe((event) => {
      if (wanted.has(event.type)) listener(event);
    });
    subscription.add(() => {
      for (const type of wanted) this.listening.set(type, this.listening.get(type)! - 1);
      this.typed -= 1;
    });
    return subscription;
  }
}
