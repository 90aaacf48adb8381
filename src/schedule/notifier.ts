// Webhook notifications: each one is POSTed as JSON, in order, from a bounded queue worked in the background.
// Failures are retried with backoff on the Clock; a full queue drops its oldest entry and counts it. notify()
// itself never waits and never throws, so a dead webhook cannot slow trading down.
import { request } from 'undici';
import { sleep } from '../clock/sleep.js';
import type { Clock } from '../domain/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { backoffDelay } from './backoff.js';
import type { Notification, Notify } from './notification.js';

export interface WebhookNotifierOptions {
  readonly clock: Clock;
  readonly url: string;
  /** Delivery attempts per notification before it is given up (counted as failed). */
  readonly attempts?: number;
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Per-request limit, measured on the Clock. */
  readonly timeoutMs?: number;
  readonly queueLimit?: number;
  readonly logger?: Logger;
}

/** The JSON body of a webhook call. */
export interface WebhookPayload extends Notification {
  readonly id: number;
  /** ISO time the notification was raised. */
  readonly at: string;
}

export interface NotifierStats {
  readonly queued: number;
  readonly sent: number;
  readonly failed: number;
  readonly dropped: number;
}

export class WebhookNotifier implements Notify {
  private readonly queue: WebhookPayload[] = [];
  private readonly logger: Logger;
  private readonly closing = new AbortController();
  private nextId = 1;
  private working: Promise<void> | undefined;
  private counts = { sent: 0, failed: 0, dropped: 0 };

  constructor(private readonly options: WebhookNotifierOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  notify(notification: Notification): void {
    if (this.closing.signal.aborted) return;
    // The head is in flight while the worker runs; the limit counts the entries waiting behind it.
    const inFlight = this.working === undefined ? 0 : 1;
    if (this.queue.length - inFlight >= (this.options.queueLimit ?? 1000)) {
      const [dropped] = this.queue.splice(inFlight, 1);
      this.counts.dropped++;
      this.logger.warn({ dropped: dropped?.kind, total: this.counts.dropped }, 'notification queue full; dropped the oldest waiting one');
    }
    this.queue.push({ id: this.nextId++, at: new Date(this.options.clock.now()).toISOString(), ...notification });
    this.kick();
  }

  stats(): NotifierStats {
    return { queued: this.queue.length, ...this.counts };
  }

  /** Resolves once the queue is empty (delivered or given up). For tests and graceful shutdown. */
  async drain(): Promise<void> {
    while (this.working !== undefined) await this.working;
  }

  /** Stops delivery; what is still queued is dropped and counted. */
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
      const delivered = await this.deliver(head);
      if (this.closing.signal.aborted) break;
      this.queue.shift();
      if (delivered) this.counts.sent++;
      else this.counts.failed++;
    }
  }

  private async deliver(payload: WebhookPayload): Promise<boolean> {
    const attempts = this.options.attempts ?? 5;
    const backoff = { initialMs: this.options.initialDelayMs ?? 1000, maxMs: this.options.maxDelayMs ?? 60_000, jitter: false };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const problem = await this.post(payload);
      if (problem === undefined) return true;
      if (this.closing.signal.aborted) return false;
      this.logger.warn({ id: payload.id, kind: payload.kind, attempt, problem }, 'webhook delivery failed');
      if (attempt === attempts) break;
      try {
        await sleep(this.options.clock, backoffDelay(attempt, backoff), this.closing.signal);
      } catch {
        return false;
      }
    }
    this.logger.error({ id: payload.id, kind: payload.kind, attempts }, 'webhook notification given up');
    return false;
  }

  /** undefined when delivered, else why not. */
  private async post(payload: WebhookPayload): Promise<string | undefined> {
    const abort = new AbortController();
    const onClose = (): void => abort.abort(this.closing.signal.reason);
    this.closing.signal.addEventListener('abort', onClose, { once: true });
    const timer = this.options.clock.setTimeout(() => abort.abort(new Error('timed out')), this.options.timeoutMs ?? 10_000);
    try {
      const response = await request(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: abort.signal,
      });
      await response.body.dump();
      return response.statusCode >= 200 && response.statusCode < 300 ? undefined : `HTTP ${response.statusCode}`;
    } catch (error) {
      return abort.signal.aborted ? String((abort.signal.reason as Error).message) : (error as Error).message;
    } finally {
      timer.cancel();
      this.closing.signal.removeEventListener('abort', onClose);
    }
  }
}
