// BotControl over `trader schedule`: the jobs and the kill switch of the schedule service, the account read
// through the scheduler's own connection, every session's events and trade connection (the command line
// hands each one over as it starts), and a person's cancel or flatten done in a session of their own on the
// schedule's account and journal, so the journal records them like any order.
import { concat, defer, from, Subject, type Observable, type Subscription } from 'rxjs';
import type { AccountBalance, BrokerPosition, Money, Order, Price, SecuritySymbol } from '../domain/index.js';
import { isOpen } from '../domain/index.js';
import type { Logger } from '../log/logger.js';
import type { ConnectionState } from '../openapi/socket/connection-state.js';
import type { Session } from '../runtime/session.js';
import type { ScheduleJob } from '../schedule/job.js';
import type { NotifierStats } from '../schedule/queued-notifier.js';
import type { ScheduleService } from '../schedule/service.js';
import type { Activity, AccountFigures, BotControl, ControlOutcome } from './control.js';
import { CONTROL_EVENT } from './control-action.js';
import type { JobView, KillSwitchView } from './view.js';

/** The scheduler's own view of the account. */
export interface ScheduleAccount {
  balances(): Promise<readonly AccountBalance[]>;
  positions(): Promise<readonly BrokerPosition[]>;
  orders(): Promise<readonly Order[]>;
  prices?(symbols: readonly SecuritySymbol[]): Promise<ReadonlyMap<string, Price>>;
}

export interface ScheduleControlOptions {
  readonly service: ScheduleService;
  readonly jobs: readonly ScheduleJob[];
  readonly mode: 'paper' | 'live';
  readonly configFile: string;
  readonly account: ScheduleAccount;
  /** A session of no strategy on the schedule's account and journal, for a person's cancel or flatten. */
  readonly withAccountSession: <T>(work: (session: Session) => Promise<T>) => Promise<T>;
  readonly homeCurrency: string | undefined;
  readonly timeZone: string;
  readonly marketTime?: () => number;
  readonly notifiers: () => ReadonlyMap<string, NotifierStats>;
  readonly logger: Logger;
  /** Keeps an event in the schedule's journal (a person's actions). */
  readonly recordEvent: (type: string, detail: Readonly<Record<string, unknown>>) => void;
}

export class ScheduleControl implements BotControl {
  readonly kind = 'schedule';
  readonly mode: 'paper' | 'live';
  readonly name: string;
  readonly homeCurrency: string | undefined;
  readonly timeZone: string;
  private readonly subject = new Subject<Activity>();
  /** The last state of every connection followed, told first to whoever subscribes later (the hub starts after them). */
  private readonly connections = new Map<string, ConnectionState>();
  readonly activity: Observable<Activity> = defer(() =>
    concat(from([...this.connections].map(([name, state]): Activity => ({ kind: 'connection', name, state }))), this.subject),
  );
  private readonly subscriptions: Subscription[] = [];
  private trippedBefore = false;

  constructor(private readonly options: ScheduleControlOptions) {
    this.mode = options.mode;
    this.name = options.configFile;
    this.homeCurrency = options.homeCurrency;
    this.timeZone = options.timeZone;
    const { service } = options;
    this.subscriptions.push(
      service.supervisor.changes.subscribe(() => {
        this.subject.next({ kind: 'jobs' });
        const tripped = service.supervisor.killSwitch !== undefined;
        if (tripped !== this.trippedBefore) this.subject.next({ kind: 'kill-switch' });
        this.trippedBefore = tripped;
      }),
      service.scheduler.events.subscribe(() => this.subject.next({ kind: 'jobs' })),
    );
  }

  /** Follows a session (a job's run, or the runner's own) until the returned function is called. */
  watchSession(job: ScheduleJob | undefined, session: Session): () => void {
    const name = `trade (${job?.name ?? 'reconciliation'})`;
    const subscriptions = [
      session.events.subscribe((event) => this.subject.next({ kind: 'runtime', event, source: session.runtime })),
      session.link.trade.state$.subscribe((state) => this.connection(name, state)),
    ];
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
      this.connection(name, undefined);
    };
  }

  /** Follows one of the scheduler's own connections. */
  watchConnection(name: string, states: Observable<ConnectionState>): Subscription {
    const subscription = states.subscribe((state) => this.connection(name, state));
    this.subscriptions.push(subscription);
    return subscription;
  }

  private connection(name: string, state: ConnectionState | undefined): void {
    if (state === undefined) this.connections.delete(name);
    else this.connections.set(name, state);
    this.subject.next({ kind: 'connection', name, state });
  }

  close(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    this.subject.complete();
  }

  async readAccount(): Promise<AccountFigures> {
    const { account } = this.options;
    const [balances, positions, orders] = await Promise.all([account.balances(), account.positions(), account.orders()]);
    const held = positions.filter((position) => !position.quantity.isZero()).map((position) => position.symbol);
    const prices =
      held.length === 0 || account.prices === undefined
        ? new Map<string, Price>()
        : await account.prices(held).catch(() => new Map<string, Price>());
    return { balances, positions, openOrders: orders.filter((order) => isOpen(order.status)), prices };
  }

  dayStart(currency: string): Money | undefined {
    return this.options.service.account?.dayStart(currency);
  }

  jobs(): readonly JobView[] {
    const { service, jobs } = this.options;
    const statuses = new Map(service.supervisor.status().map((status) => [status.name, status]));
    return jobs.map((job): JobView => {
      const status = statuses.get(job.name);
      const schedule = service.scheduler.schedule(job.name);
      const state = status?.state ?? 'idle';
      const windowOpen = schedule?.window.open ?? false;
      const last = status?.lastResult;
      return {
        name: job.name,
        kind: job.trigger.kind,
        state,
        paused: status?.paused ?? false,
        next: schedule?.next === undefined ? undefined : { at: new Date(schedule.next.at).toISOString(), trigger: schedule.next.trigger },
        lastResult: last === undefined ? undefined : { at: new Date(last.at).toISOString(), outcome: last.outcome, message: last.message },
        lastError: status?.lastError?.message,
        canRunNow: (state === 'idle' || state === 'restarting') && (job.trigger.kind === 'cron' || windowOpen),
      };
    });
  }

  killSwitch(): KillSwitchView {
    const tripped = this.options.service.supervisor.killSwitch;
    return {
      tripped: tripped !== undefined,
      reason: tripped?.reason,
      at: tripped === undefined ? undefined : new Date(tripped.at).toISOString(),
    };
  }

  marketTime(): number | undefined {
    return this.options.marketTime?.();
  }

  notifiers(): ReadonlyMap<string, NotifierStats> {
    return this.options.notifiers();
  }

  async cancelOrder(orderId: string): Promise<ControlOutcome> {
    try {
      await this.options.withAccountSession(async (session) => {
        await session.link.broker.cancelOrder(orderId);
        await session.runtime.reconcileNow();
      });
      return { done: true, message: `cancel of order ${orderId} sent` };
    } catch (error) {
      return { done: false, message: `cannot cancel order ${orderId}: ${describe(error)}` };
    }
  }

  async flatten(symbol: SecuritySymbol): Promise<ControlOutcome> {
    try {
      const closing = await this.options.withAccountSession((session) => session.runtime.flatten(symbol, 'flatten by hand'));
      return closing
        ? { done: true, message: `${symbol}: closing order sent (see fills and denials for how it went)` }
        : { done: false, message: `${symbol}: no position to close` };
    } catch (error) {
      return { done: false, message: `cannot flatten ${symbol}: ${describe(error)}` };
    }
  }

  pauseJob(name: string): Promise<ControlOutcome> {
    return this.options.service.supervisor.pause(name);
  }

  async resumeJob(name: string): Promise<ControlOutcome> {
    return this.options.service.supervisor.resume(name);
  }

  async runJobNow(name: string): Promise<ControlOutcome> {
    return this.options.service.supervisor.runNow(name);
  }

  async tripKillSwitch(reason: string): Promise<ControlOutcome> {
    const { service } = this.options;
    const tripped = service.supervisor.killSwitch;
    if (tripped !== undefined) return { done: false, message: `the kill switch is already tripped: ${tripped.reason}` };
    const cancelled = await service.killSwitch(reason);
    this.subject.next({ kind: 'kill-switch' });
    return {
      done: true,
      message: `kill switch tripped: every job halted for the rest of its market day, ${cancelled} open order(s) cancelled`,
      cancelled,
    };
  }

  async resetKillSwitch(): Promise<ControlOutcome> {
    const outcome = await this.options.service.resetKillSwitch();
    this.subject.next({ kind: 'kill-switch' });
    return outcome;
  }

  recordControl(detail: Readonly<Record<string, unknown>>): void {
    this.options.recordEvent(CONTROL_EVENT, detail);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
