// The executor's queue: intents, and tasks between them, taken one at a time in order. Those that finish at
// once (skips, denials, orders a broker in process answered) are taken one after the other in the caller's
// turn; the queue waits (asynchronously) only on one that waits for the broker, and goes on from there once
// it has finished.
import type { OrderIntent } from '../domain/index.js';
import type { Logger } from '../log/logger.js';

export interface QueuedIntent {
  readonly strategy: string;
  readonly intent: OrderIntent;
  /** Sent by the stop itself (flattening): it may place an order after close(). */
  readonly onStop: boolean;
}

/** Work the intents queued after it wait for (see Executor.queueTask). */
export interface QueuedTask {
  readonly task: () => Promise<void>;
}

const RESOLVED: Promise<void> = Promise.resolve();

export class IntentQueue {
  private readonly items: (QueuedIntent | QueuedTask)[] = [];
  private draining = false;
  private processing: QueuedIntent | undefined;
  private pending = 0;
  private waiters: (() => void)[] = [];

  /** `process` returns a promise only while the intent waits for the broker. */
  constructor(
    private readonly process: (item: QueuedIntent) => Promise<unknown> | undefined,
    private readonly logger: Logger,
  ) {}

  /** The intent being processed; undefined while a task runs. */
  get current(): QueuedIntent | undefined {
    return this.processing;
  }

  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves when nothing is queued or being processed. */
  settled(): Promise<void> {
    if (this.pending === 0) return RESOLVED;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  push(item: QueuedIntent | QueuedTask): void {
    this.items.push(item);
    this.pending += 1;
    if (!this.draining) this.drain();
  }

  /** Drops what still waits for its turn (the one being processed goes on); returns how many. */
  clear(): number {
    const dropped = this.items.splice(0);
    for (let index = 0; index < dropped.length; index += 1) this.finishOne();
    return dropped.length;
  }

  private drain(): void {
    this.draining = true;
    for (let item = this.items.shift(); item !== undefined; item = this.items.shift()) {
      if ('task' in item) {
        void this.finishLater(item, item.task());
        return;
      }
      let waiting: Promise<unknown> | undefined;
      this.processing = item;
      try {
        waiting = this.process(item);
      } catch (error) {
        this.failed(item, error);
      }
      if (waiting !== undefined) {
        void this.finishLater(item, waiting);
        return;
      }
      this.processing = undefined;
      this.finishOne();
    }
    this.draining = false;
  }

  private async finishLater(item: QueuedIntent | QueuedTask, waiting: Promise<unknown>): Promise<void> {
    try {
      await waiting;
    } catch (error) {
      this.failed(item, error);
    }
    this.processing = undefined;
    this.finishOne();
    this.drain();
  }

  private failed(item: QueuedIntent | QueuedTask, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if ('task' in item) this.logger.warn({ error: message }, 'a task between intents failed');
    else this.logger.error({ strategy: item.strategy, error: message }, 'intent processing failed');
  }

  private finishOne(): void {
    this.pending -= 1;
    if (this.pending > 0 || this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
