// Feeds the outage guard from the schedule's long connections (the shared quote connection and each running
// session's trade connection): the link is down while any of them is lost, up when all are online. Once the
// link is back after a halt, a reconciliation pass runs, and only then are new orders allowed again.
import { filter, map, type Observable, type Subscription } from 'rxjs';
import type { Clock, TimerHandle } from '../domain/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { ConnectionState } from '../openapi/socket/connection-state.js';
import type { OutageGuard } from './outage-guard.js';

export interface LinkMonitorOptions {
  readonly guard: OutageGuard;
  readonly clock: Clock;
  /** Reconciles the running sessions with the broker. */
  readonly reconcile: () => Promise<void>;
  /** How long to wait before trying a failed reconciliation again. Default 30 s. */
  readonly retryMs?: number;
  readonly logger?: Logger;
}

export class LinkMonitor {
  private readonly down = new Set<string>();
  private readonly subscription: Subscription;
  private retry: TimerHandle | undefined;
  private reconciling = false;

  constructor(private readonly options: LinkMonitorOptions) {
    this.subscription = options.guard.states.pipe(filter((state) => state === 'reconciling')).subscribe(() => this.reconcile());
  }

  /** Follows one connection under a name until the returned function is called (or it closes). */
  watch(name: string, states: Observable<ConnectionState>): () => void {
    const subscription = states.pipe(map(linkOf)).subscribe((link) => {
      if (link === 'down') this.down.add(name);
      else if (link !== undefined) this.down.delete(name);
      this.update();
    });
    return () => {
      subscription.unsubscribe();
      this.down.delete(name);
      this.update();
    };
  }

  close(): void {
    this.subscription.unsubscribe();
    this.retry?.cancel();
  }

  private update(): void {
    if (this.down.size > 0) this.options.guard.linkDown();
    else this.options.guard.linkUp();
  }

  private reconcile(): void {
    if (this.reconciling) return;
    this.reconciling = true;
    const logger = this.options.logger ?? silentLogger;
    this.options.reconcile().then(
      () => {
        this.reconciling = false;
        this.options.guard.reconciled();
      },
      (error: unknown) => {
        this.reconciling = false;
        logger.warn(
          { error: error instanceof Error ? error.message : String(error) },
          'reconciliation after the outage failed; trying again',
        );
        this.retry = this.options.clock.setTimeout(() => {
          if (this.options.guard.state === 'reconciling') this.reconcile();
        }, this.options.retryMs ?? 30_000);
      },
    );
  }
}

/** A connection closed on purpose (or for good) no longer counts; a first connect says nothing yet. */
function linkOf(state: ConnectionState): 'up' | 'down' | 'gone' | undefined {
  switch (state.status) {
    case 'online':
      return 'up';
    case 'reconnecting':
      return 'down';
    case 'closed':
      return 'gone';
    case 'connecting':
      return undefined;
  }
}
