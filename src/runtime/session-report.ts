// What a session reports beyond the runtime's summary: denials by code, reconciliation findings (orders at
// the broker that are not ours, positions or cash that disagreed), how long it ran, and a periodic status
// line with positions and PnL while something is happening.
import type { Subscription } from 'rxjs';
import type { Clock, TimerHandle } from '../domain/clock.js';
import type { MismatchKind } from '../execution/events.js';
import type { Logger } from '../log/logger.js';
import type { Runtime } from './runtime.js';
import type { RuntimeSummary } from './summary.js';

export interface ReconciliationFinding {
  readonly kind: MismatchKind;
  readonly message: string;
}

export interface SessionReport {
  readonly mode: 'paper' | 'live';
  /** Wall time the session ran, in milliseconds. */
  readonly elapsedMs: number;
  readonly summary: RuntimeSummary;
  readonly denialsByCode: Readonly<Record<string, number>>;
  /** Every reconciliation mismatch, in order (unknown orders first seen at start among them). */
  readonly findings: readonly ReconciliationFinding[];
}

export class SessionRecorder {
  private readonly startedAt: number;
  private readonly denials: Record<string, number> = {};
  private readonly findings: ReconciliationFinding[] = [];
  private changed = false;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly mode: 'paper' | 'live',
    private readonly runtime: Runtime,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly statusEveryMs: number,
    /** The replay's market time in paper mode, shown in status lines. */
    private readonly marketNow: (() => number) | undefined,
  ) {
    this.startedAt = clock.now();
  }

  watch(): Subscription {
    return this.runtime.events.subscribe((event) => {
      if (event.type === 'denial') this.denials[event.denial.code] = (this.denials[event.denial.code] ?? 0) + 1;
      else if (event.type === 'reconciliation-mismatch') this.findings.push({ kind: event.kind, message: event.message });
      if (event.type !== 'reconciled') this.changed = true;
    });
  }

  /** The runtime has reconciled and its strategies run on `quotes`: say so, with what the reconciliation found. */
  started(quotes: readonly string[]): void {
    const summary = this.runtime.summary();
    const unknown = this.findings.filter((finding) => finding.kind === 'unknown-order').length;
    this.logger.info(
      {
        strategies: summary.strategies.map((strategy) => strategy.name),
        openOrders: summary.openOrders,
        positions: summary.positions.map((position) => `${position.symbol} ${position.quantity.toFixed()}`),
        unknownOrders: unknown,
        quotes,
      },
      `running: journal and broker reconciled (${summary.openOrders} open order(s) of ours, ${summary.positions.length} position(s)` +
        `${unknown > 0 ? `, ${unknown} order(s) at the broker that are not ours` : ''}); quotes of ${quotes.length === 0 ? 'no symbol' : quotes.join(', ')} subscribed`,
    );
    if (this.statusEveryMs > 0) this.timer = this.clock.setInterval(() => this.status(), this.statusEveryMs);
  }

  report(): SessionReport {
    return {
      mode: this.mode,
      elapsedMs: this.clock.now() - this.startedAt,
      summary: this.runtime.summary(),
      denialsByCode: { ...this.denials },
      findings: [...this.findings],
    };
  }

  close(): void {
    this.timer?.cancel();
  }

  private status(): void {
    if (!this.changed) return;
    this.changed = false;
    const summary = this.runtime.summary();
    const pnl = summary.pnl.map(
      (entry) => `${entry.currency} ${entry.realized.toFixed(2)} realized, ${entry.unrealized.toFixed(2)} unrealized`,
    );
    this.logger.info(
      {
        orders: summary.orders,
        fills: summary.fills,
        denials: summary.denials,
        openOrders: summary.openOrders,
        positions: summary.positions.map((position) => `${position.symbol} ${position.quantity.toFixed()}`),
        ...(this.marketNow === undefined ? {} : { marketTime: new Date(this.marketNow()).toISOString() }),
      },
      `status: ${summary.orders} order(s), ${summary.fills} fill(s), ${summary.denials} denial(s); PnL ${pnl.length === 0 ? 'none yet' : pnl.join('; ')}`,
    );
  }
}
