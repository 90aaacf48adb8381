// How our operators subscribe to their sources: with a Subscriber that hands each value to a function and
// passes errors and completion downstream. Given an observer object instead, RxJS wraps it in two more
// layers per value (and reports what its next throws as an unhandled error rather than downstream).
import { type Observable, Subscriber, type Subscription } from 'rxjs';

class ForwardingSubscriber<T> extends Subscriber<T> {
  constructor(
    destination: Subscriber<unknown>,
    private readonly onNext: (value: T) => void,
  ) {
    super(destination);
  }

  protected override _next(value: T): void {
    try {
      this.onNext(value);
    } catch (error) {
      this.destination.error(error);
    }
  }
}

/** Subscribes `downstream` to `source` through `next`, which sees every value (and may emit downstream). */
export function operate<T>(source: Observable<T>, downstream: Subscriber<unknown>, next: (value: T) => void): Subscription {
  return source.subscribe(new ForwardingSubscriber(downstream, next));
}
