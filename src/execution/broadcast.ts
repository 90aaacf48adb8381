// A multicast stream that behaves as an RxJS Subject for next/error/complete/subscribe/pipe, but whose next()
// allocates nothing (Subject.next makes a closure and an array iterator per value). A backtest pushes every
// bar and about ten runtime events per order through these.
import { Observable, type Subscriber } from 'rxjs';

type Ending = { readonly kind: 'complete' } | { readonly kind: 'error'; readonly error: unknown };

interface Listeners<T> {
  /** Replaced, never changed in place, so a delivery in progress keeps the list it started with. */
  subscribers: readonly Subscriber<T>[];
  ending: Ending | undefined;
}

export class Broadcast<T> extends Observable<T> {
  private readonly listeners: Listeners<T>;
  private readonly readOnly: Observable<T>;

  constructor() {
    const listeners: Listeners<T> = { subscribers: [], ending: undefined };
    super((subscriber) => {
      const ending = listeners.ending;
      if (ending !== undefined) {
        if (ending.kind === 'error') subscriber.error(ending.error);
        else subscriber.complete();
        return undefined;
      }
      listeners.subscribers = [...listeners.subscribers, subscriber];
      return () => {
        listeners.subscribers = listeners.subscribers.filter((candidate) => candidate !== subscriber);
      };
    });
    this.listeners = listeners;
    this.readOnly = new Observable<T>((subscriber) => this.subscribe(subscriber));
  }

  /** Whether anyone is subscribed. */
  get observed(): boolean {
    return this.listeners.subscribers.length > 0;
  }

  /** How many are subscribed. */
  protected get subscriberCount(): number {
    return this.listeners.subscribers.length;
  }

  next(value: T): void {
    if (this.listeners.ending !== undefined) return;
    const subscribers = this.listeners.subscribers;
    for (let index = 0; index < subscribers.length; index += 1) subscribers[index]!.next(value);
  }

  error(error: unknown): void {
    this.end({ kind: 'error', error });
  }

  complete(): void {
    this.end({ kind: 'complete' });
  }

  /** The stream without next/error/complete. */
  asObservable(): Observable<T> {
    return this.readOnly;
  }

  private end(ending: Ending): void {
    if (this.listeners.ending !== undefined) return;
    this.listeners.ending = ending;
    const subscribers = this.listeners.subscribers;
    this.listeners.subscribers = [];
    for (const subscriber of subscribers) {
      if (ending.kind === 'error') subscriber.error(ending.error);
      else subscriber.complete();
    }
  }
}
