// One run of a scheduled strategy job, as one session: started, watched, and ended by the supervisor's stop
// (window closed, kill switch, shutdown), by finishing (a cron run: its strategy completed and the job's
// orders are done, or `runFor` is up), or by crashing (every strategy failed, a connection closed for good,
// the session could not start), which the supervisor answers with a restart after a backoff.
import { Subject, type Subscription } from 'rxjs';
import { isOpen, type Clock, type OrderIntent, type OrderStatus, type TimerHandle } from '../domain/index.js';
import type { RuntimeEvent } from '../execution/events.js';
import type { Logger } from '../log/logger.js';
import type { ScheduleJob } from '../schedule/job.js';
import type { JobRun, JobRunEvent, RunContext, StopOptions } from '../schedule/job-runner.js';
import type { PreparedStrategy } from '../strategy/prepare.js';
import type { IntentGate } from './intent-gate.js';
import type { Session, SessionEnd } from './session.js';
import { barText, describeWhere } from '../strategy/failure.js';

/** What a run needs from its runner. */
export interface JobRunDeps {
  readonly job: ScheduleJob;
  readonly context: RunContext;
  readonly clock: Clock;
  /** The job's logger: it names the job on every line already, so the lines here do not again. */
  readonly logger: Logger;
  /** The job's strategy, named after the job (so journal rows and events say whose orders they are). */
  readonly load: () => Promise<PreparedStrategy>;
  /**
   * `gate`: the run's own (closed once it is stopping, and the runner's gate's answer meanwhile); `signal`
   * cuts the start short.
   */
  readonly open: (strategy: PreparedStrategy, gate: IntentGate, signal: AbortSignal) => Promise<Session>;
  /** Cancels the job's open orders (of this run and earlier ones) at the broker; resolves to how many. */
  readonly cancelJobOrders: (session: Session) => Promise<number>;
  /** The runner's gate (the outage guard), asked before each new order. */
  readonly gate: IntentGate | undefined;
  readonly pollMs: number;
  /** Told when the session runs; the returned function when it is over. */
  readonly attach: (session: Session) => () => void;
}

/** Order intents held back by the gate are denied with this code (in the journal, and reported). */
export { ORDERS_HALTED } from './intent-gate.js';

type Outcome =
  | { readonly kind: 'stop'; readonly options: StopOptions }
  | { readonly kind: 'ended'; readonly end: SessionEnd }
  | { readonly kind: 'finished' }
  | { readonly kind: 'time-up' }
  | { readonly kind: 'aborted'; readonly reason: string };

export class SessionJobRun implements JobRun {
  readonly events = new Subject<JobRunEvent>();
  readonly done: Promise<'completed' | 'stopped'>;
  private stopRequest: StopOptions | undefined;
  /** Open orders the wind-down cancelled (known once it has cancelled them). */
  private cancelled: number | undefined;
  private settle: ((outcome: Outcome) => void) | undefined;
  /** Status of each order of this job seen during the run, by client order id. */
  private readonly orders = new Map<string, OrderStatus>();

  constructor(private readonly deps: JobRunDeps) {
    this.done = this.run();
  }

  stop(options: StopOptions): Promise<number | undefined> {
    this.stopRequest ??= options;
    this.settle?.({ kind: 'stop', options: this.stopRequest });
    return this.done.then(
      () => this.cancelled,
      () => this.cancelled,
    );
  }

  private async run(): Promise<'completed' | 'stopped'> {
    const { job, logger } = this.deps;
    try {
      const { signal } = this.deps.context;
      const strategy = await this.deps.load();
      if (this.stopRequest !== undefined) return 'stopped';
      // An abort while the session starts cuts the start: what it opened is closed, nothing is left running.
      const session = await this.deps.open(strategy, { blocked: () => this.blocked() }, signal).catch((error: unknown) => {
        throw signal.aborted ? new Error(`run aborted: ${reasonOf(signal)}`, { cause: error }) : error;
      });
      const detach = this.deps.attach(session);
      const watching = session.events.subscribe((event) => this.observe(event));
      const unwatchAbort = this.closeLinkOnAbort(session);
      try {
        const outcome = await this.wait(session);
        logger.info({ outcome: outcome.kind }, `job ${job.name}: run ending (${describe(outcome)})`);
        return await this.finish(session, outcome);
      } finally {
        unwatchAbort();
        watching.unsubscribe();
        detach();
      }
    } finally {
      this.events.complete();
    }
  }

  // Resolves with the first reason to end: a stop request, the session ending, the run finishing or timing out.
  private wait(session: Session): Promise<Outcome> {
    const { job, clock, context, pollMs } = this.deps;
    return new Promise<Outcome>((resolve) => {
      const cleanups: (() => void)[] = [];
      let settled = false;
      const settle = (outcome: Outcome): void => {
        if (settled) return;
        settled = true;
        for (const cleanup of cleanups) cleanup();
        this.settle = undefined;
        resolve(outcome);
      };
      this.settle = settle;
      if (this.stopRequest !== undefined) return settle({ kind: 'stop', options: this.stopRequest });
      void session.ended.then((end) => settle({ kind: 'ended', end }));
      const onAbort = (): void => settle({ kind: 'aborted', reason: reasonOf(context.signal) });
      // Aborted while the session was opening: its listener would never hear of it.
      if (context.signal.aborted) return onAbort();
      context.signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => context.signal.removeEventListener('abort', onAbort));
      if (job.target.kind !== 'strategy' || job.trigger.kind !== 'cron') return;
      const check = (): void => {
        if (this.finished(session)) settle({ kind: 'finished' });
      };
      const timers: TimerHandle[] = [
        clock.setInterval(check, pollMs),
        clock.setTimeout(() => settle({ kind: 'time-up' }), job.target.runForMs),
      ];
      // After each event, once the executor is idle again (the event may come from inside a submission).
      const subscription: Subscription = session.events.subscribe(() => void session.runtime.settled().then(check));
      cleanups.push(() => {
        for (const timer of timers) timer.cancel();
        subscription.unsubscribe();
      });
    });
  }

  private async finish(session: Session, outcome: Outcome): Promise<'completed' | 'stopped'> {
    switch (outcome.kind) {
      case 'stop':
        await this.untilAborted(session, this.windDown(session, outcome.options));
        return 'stopped';
      case 'finished':
        await this.untilAborted(session, session.stop());
        return 'completed';
      case 'time-up':
        await this.untilAborted(session, this.windDown(session, { reason: 'time-up', flatten: false, cancelOpenOrders: true }));
        return 'completed';
      case 'ended': {
        await session.stop().catch(() => undefined);
        // Each with the line of its file and the bar it was handling, when known.
        const failures = session
          .report()
          .summary.strategies.filter((one) => one.error !== undefined)
          .map(({ error, failure }) =>
            failure === undefined
              ? error
              : describeWhere(failure.location, failure.bar === undefined ? undefined : barText(failure.bar), error ?? failure.error),
          );
        throw new Error(
          outcome.end.kind === 'strategies-failed' && failures.length > 0 ? `strategy failed: ${failures.join('; ')}` : outcome.end.message,
        );
      }
      case 'aborted':
        // The link is closed already: the stop fails fast, and the journal is closed after its last write.
        await session.stop().catch(() => undefined);
        throw new Error(`run aborted: ${outcome.reason}`);
    }
  }

  /**
   * Ends the run: no new orders from here on (the gate closes), requests in flight settle, the job's open
   * orders are cancelled when asked (only this job's: other jobs share the account and the journal), then
   * the session stops, flattening the job's symbols when asked.
   */
  private async windDown(session: Session, options: StopOptions): Promise<void> {
    const { job, logger } = this.deps;
    // The gate holds this job's intents back from here on: one waiting for its risk figures is denied now,
    // not after reads the account's pacing holds for other jobs' calls.
    session.runtime.recheckGate();
    await session.runtime.settled();
    if (options.cancelOpenOrders) {
      const cancelled = await this.deps.cancelJobOrders(session);
      this.cancelled = cancelled;
      logger.info({ cancelled, reason: options.reason }, `job ${job.name}: ${cancelled} open order(s) cancelled`);
      if (cancelled > 0)
        await session.runtime
          .reconcileNow()
          .catch((error: unknown) => logger.warn({ error: String(error) }, 'reconciliation after cancelling failed'));
    }
    await session.stop({ flatten: options.flatten, cancelOpenOrders: false });
  }

  /**
   * The run's way to its end, cut short by an abort: the link is closed then (closeLinkOnAbort), so whatever
   * waited on the venue fails at once; the run ends once that work and the session's stop have settled, so
   * the journal is closed after its last write and the venue is not closed under the session.
   */
  private async untilAborted<T>(session: Session, work: Promise<T>): Promise<T> {
    const { signal } = this.deps.context;
    let unlisten = (): void => undefined;
    const aborted = new Promise<'aborted'>((resolve) => {
      if (signal.aborted) return resolve('aborted');
      const onAbort = (): void => resolve('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      unlisten = () => signal.removeEventListener('abort', onAbort);
    });
    const settled = work.then(
      (value) => ({ value }),
      (error: unknown) => {
        if (signal.aborted) return undefined;
        throw error;
      },
    );
    try {
      const first = await Promise.race([settled, aborted]);
      if (first !== 'aborted' && first !== undefined) return first.value;
    } finally {
      unlisten();
    }
    await settled.catch(() => undefined);
    await session.stop().catch(() => undefined);
    throw new Error(`run aborted: ${reasonOf(signal)}`);
  }

  /**
   * On abort (a stop that took longer than the schedule's stopTimeout, or the process going down) the
   * session's link to the venue closes at once: HTTP calls waiting or in flight fail, the trade connection
   * stops reconnecting, and retries give up, so the stop path ends instead of waiting on the venue. Orders
   * left open stay in the journal for the next start's reconciliation.
   */
  private closeLinkOnAbort(session: Session): () => void {
    const { signal } = this.deps.context;
    const { job, logger } = this.deps;
    const close = (): void => {
      logger.warn({ reason: reasonOf(signal) }, `job ${job.name}: run aborted; closing its connections to the venue`);
      void session.link.close();
    };
    if (signal.aborted) {
      close();
      return () => undefined;
    }
    signal.addEventListener('abort', close, { once: true });
    return () => signal.removeEventListener('abort', close);
  }

  // A cron run is done once its strategy completed, nothing is in flight and none of its orders is open.
  private finished(session: Session): boolean {
    if (session.runtime.busy) return false;
    if (!session.runtime.summary().strategies.every((one) => one.state === 'completed')) return false;
    for (const status of this.orders.values()) if (isOpen(status)) return false;
    return true;
  }

  private blocked(): string | undefined {
    if (this.stopRequest !== undefined) return `job ${this.deps.job.name} is stopping`;
    return this.deps.gate?.blocked();
  }

  private observe(event: RuntimeEvent): void {
    const name = this.deps.job.name;
    switch (event.type) {
      case 'order-submitted':
        if (event.strategy === name && !this.orders.has(event.clientOrderId)) this.orders.set(event.clientOrderId, 'NotReported');
        break;
      case 'order-updated':
        if (event.strategy === name) this.orders.set(event.clientOrderId, event.status);
        break;
      case 'fill':
        // Fills of other jobs' orders reach every session of the account; each job reports its own.
        if (event.strategy !== name) break;
        this.events.next({
          kind: 'fill',
          symbol: event.fill.symbol,
          side: event.fill.side,
          quantity: event.fill.quantity.toFixed(),
          price: event.fill.price.toFixed(),
          orderId: event.fill.orderId,
        });
        break;
      case 'denial':
        this.events.next({ kind: 'denial', code: event.denial.code, message: event.denial.message, ...symbolOf(event.intent) });
        break;
      case 'order-unconfirmed':
        if (event.strategy === name)
          this.events.next({ kind: 'error', message: `order ${event.clientOrderId} unconfirmed: ${event.reason}` });
        break;
      default:
        break;
    }
  }
}

function symbolOf(intent: OrderIntent): { symbol?: string } {
  return intent.symbol === undefined ? {} : { symbol: intent.symbol };
}

function reasonOf(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted');
}

function describe(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'stop':
      return `stop: ${outcome.options.reason}`;
    case 'ended':
      return outcome.end.message;
    case 'finished':
      return 'strategy completed and its orders are done';
    case 'time-up':
      return 'runFor is up';
    case 'aborted':
      return outcome.reason;
  }
}
