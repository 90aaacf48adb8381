// Notifications delivered in order from a bounded queue worked in the background, whatever the channel
// (a webhook, a chat): failures are retried with backoff on the Clock, a full queue drops its oldest entry
// and counts it. notify() itself never waits and never throws, so a dead channel cannot slow trading down.
import { sleep } from '../clock/sleep.js';
import type { Clock } from '../domain/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { backoffDelay } from './backoff.js';
import type { Notification, Notify } from './notification.js';

export interface QueueSettings {
  readonly clock: Clock;
  /** Delivery attempts per notification before it is given up (counted as failed). */
  readonly attempts?: number;
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Per-delivery limit, measured on the Clock. */
  readonly timeoutMs?: number;
  readonly queueLimit?: number;
  readonly logger?: Logger;
}

/** A notification as queued: numbered, with the ISO time it was raised. */
export interface QueuedNotification extends Notification {
  readonly id: number;
  readonly at: string;
}

export interface NotifierStats {
  readonly queued: number;
  readonly sent: number;
  readonly failed: number;
  readonly dropped: number;
}

/** A notifier the schedule service can drain and close on shutdown. */
export interface ManagedNotifier extends Notify {
  stats(): NotifierStats;
  /** Resolves once the queue is empty (delivered or given up). */
  drain(): Promise<void>;
  /** Stops delivery; what is still queued is dropped and counted. */
  close(): void;
}

/** Why a delivery failed, and how long the channel asked us to wait before the next attempt (a 429's retry-after). */
export interface DeliveryProblem {
  readonly problem: string;
  readonly retryAfterMs: number;
}

/**
 * Sends one notification; resolves to undefined when delivered, else why not (one line, no secrets), with the
 * wait the channel asked for when it said so. `signal` is aborted on timeout or close.
 */
export type Deliver = (notification: QueuedNotification, signal: AbortSignal) => Promise<string | DeliveryProblem | undefined>;

export class QueuedNotifier implements ManagedNotifier {
  private readonly queue: QueuedNotification[] = [];
  private readonly logger: Logger;
  private readonly closing = new AbortController();
  private nextId = 1;
  private working: Promise<void> | undefined;
  private counts = { sent: 0, failed: 0, dropped: 0 };

  constructor(
    private readonly settings: QueueSettings,
    private readonly deliver: Deliver,
  ) {
    this.logger = settings.logger ?? silentLogger;
  }

  notify(notification: Notification): void {
    if (this.closing.signal.aborted) return;
    // The head is in flight while the worker runs; the limit counts the entries waiting behind it.
    const inFlight = this.working === undefined ? 0 : 1;
    if (this.queue.length - inFlight >= (this.settings.queueLimit ?? 1000)) {
      const [dropped] = this.queue.splice(inFlight, 1);
      this.counts.dropped++;
      this.logger.warn({ dropped: dropped?.kind, total: this.counts.dropped }, 'notification queue full; dropped the oldest waiting one');
    }
    this.queue.push({ id: this.nextId++, at: new Date(this.settings.clock.now()).toISOString(), ...notification });
    this.kick();
  }

  stats(): NotifierStats {
    return { queued: this.queue.length, ...this.counts };
  }

  async drain(): Promise<void> {
    while (this.working !== undefined) await this.working;
  }

  close(): void {
    this.counts.dropped += this.queue.length;
    this.queue.length = 0;
    this.closing.abort(new Error('notifier closed'));
  }

  // One worker at a time; one that ends just as a notification arrives hands over to a new one.
  private kick(): void {
    if (this.working !== undefined || this.closing.signal.aborted) return;
    this.working = this.work().finally(() => {
      this.working = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async work(): Promise<void> {
    for (let head = this.queue[0]; head !== undefined && !this.closing.signal.aborted; head = this.queue[0]) {
      const delivered = await this.attempt(head);
      if (this.closing.signal.aborted) break;
      this.queue.shift();
      if (delivered) this.counts.sent++;
      else this.counts.failed++;
    }
  }

  private async attempt(notification: QueuedNotification): Promise<boolean> {
    const attempts = this.settings.attempts ?? 5;
    const backoff = { initialMs: this.settings.initialDelayMs ?? 1000, maxMs: this.settings.maxDelayMs ?? 60_000, jitter: false };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const outcome = await this.once(notification);
      if (outcome === undefined) return true;
      if (this.closing.signal.aborted) return false;
      const { problem, retryAfterMs } = typeof outcome === 'string' ? { problem: outcome, retryAfterMs: 0 } : outcome;
      this.logger.warn({ id: notification.id, kind: notification.kind, attempt, problem }, 'notification delivery failed');
      if (attempt === attempts) break;
      try {
        // A channel that said how long to wait (HTTP 429) is not asked again sooner: that only prolongs the ban.
        await sleep(this.settings.clock, Math.max(backoffDelay(attempt, backoff), retryAfterMs), this.closing.signal);
      } catch {
        return false;
      }
    }
    this.logger.error({ id: notification.id, kind: notification.kind, attempts }, 'notification given up');
    return false;
  }

  /** undefined when delivered, else why not. */
  private async once(notification: QueuedNotification): Promise<string | DeliveryProblem | undefined> {
    const abort = new AbortController();
    const onClose = (): void => abort.abort(this.closing.signal.reason);
    this.closing.signal.addEventListener('abort', onClose, { once: true });
    const timer = this.settings.clock.setTimeout(() => abort.abort(new Error('timed out')), this.settings.timeoutMs ?? 10_000);
    try {
      return await this.deliver(notification, abort.signal);
    } catch (error) {
      return abort.signal.aborted ? String((abort.signal.reason as Error).message) : (error as Error).message;
    } finally {
      timer.cancel();
      this.closing.signal.removeEventListener('abort', onClose);
    }
  }
}
