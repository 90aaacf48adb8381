// The socket-outage guard: a link down for longer than the limit halts new orders until the link is back AND
// a reconciliation with the broker has completed. The runtime reports link changes and asks `ordersAllowed`.
import { BehaviorSubject, type Observable } from 'rxjs';
import type { Clock, TimerHandle } from '../domain/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { formatDuration } from './duration.js';
import { noNotify, type Notify } from './notification.js';

/**
 * up: link fine · down: link lost, still inside the grace limit (orders allowed) · halted: down past the
 * limit (no new orders) · reconciling: link back after a halt, waiting for the reconciliation (no new orders).
 */
export type LinkState = 'up' | 'down' | 'halted' | 'reconciling';

export interface OutageGuardOptions {
  readonly clock: Clock;
  readonly limitMs: number;
  readonly notifier?: Notify;
  readonly logger?: Logger;
}

export class OutageGuard {
  private readonly subject = new BehaviorSubject<LinkState>('up');
  private timer: TimerHandle | undefined;
  private since: number | undefined;
  private readonly notifier: Notify;
  private readonly logger: Logger;

  /** The current state, then every change. */
  readonly states: Observable<LinkState> = this.subject.asObservable();

  constructor(private readonly options: OutageGuardOptions) {
    this.notifier = options.notifier ?? noNotify;
    this.logger = options.logger ?? silentLogger;
  }

  get state(): LinkState {
    return this.subject.value;
  }

  /** Whether new orders may be sent now. Cancels are always allowed: they only reduce risk. */
  get ordersAllowed(): boolean {
    return this.state === 'up' || this.state === 'down';
  }

  /** When the current outage began (undefined while up). */
  get downSince(): number | undefined {
    return this.since;
  }

  linkDown(): void {
    if (this.state === 'up') {
      this.since = this.options.clock.now();
      this.timer = this.options.clock.setTimeout(() => this.halt(), this.options.limitMs);
      this.move('down');
    } else if (this.state === 'reconciling') {
      this.move('halted');
    }
  }

  linkUp(): void {
    if (this.state === 'down') {
      this.cancelTimer();
      this.since = undefined;
      this.move('up');
    } else if (this.state === 'halted') {
      this.move('reconciling');
    }
  }

  /** The runtime finished reconciling journal and broker after the link came back. */
  reconciled(): void {
    if (this.state !== 'reconciling') return;
    const lasted = this.options.clock.now() - (this.since ?? this.options.clock.now());
    this.since = undefined;
    this.move('up');
    this.notifier.notify({
      kind: 'recovered',
      message: `link and reconciliation back after ${formatDuration(lasted)}; new orders allowed again`,
    });
  }

  close(): void {
    this.cancelTimer();
    this.subject.complete();
  }

  private halt(): void {
    this.timer = undefined;
    const message = `socket link down for more than ${formatDuration(this.options.limitMs)}: new orders halted until the link and a reconciliation are back`;
    this.logger.error({ limitMs: this.options.limitMs }, message);
    this.notifier.notify({ kind: 'outage', message, details: { downSince: this.since } });
    this.move('halted');
  }

  private move(state: LinkState): void {
    if (state === this.state) return;
    this.logger.info({ from: this.state, to: state }, `link state ${state}`);
    this.subject.next(state);
  }

  private cancelTimer(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
