// BotControl over one `trader run` session: the account read through the session's broker, its one
// strategy shown as the one job (pause and resume hold its intents back at the ManualGate, the one waiting
// for its risk figures included; there is nothing to run now), the kill switch (the gate closed likewise and
// the run's open orders cancelled), and the run's events told to people as the schedule's webhook tells them
// (fill, denial, halt, crash, token expiry, outage, recovered).
import { map, merge, Subject, type Observable, type Subscription } from 'rxjs';
import { isOpen, type Clock, type Money, type Price, type SecuritySymbol } from '../domain/index.js';
import { withTimeout } from '../execution/with-timeout.js';
import type { Logger } from '../log/logger.js';
import type { Session } from '../runtime/session.js';
import type { AccountDay } from '../schedule/account-day.js';
import type { Notify } from '../schedule/notification.js';
import type { NotifierStats } from '../schedule/queued-notifier.js';
import type { Activity, AccountFigures, BotControl, ControlOutcome } from './control.js';
import { CONTROL_EVENT } from './control-action.js';
import { GATE_CODES, type ManualGate } from './manual-gate.js';
import type { JobView, KillSwitchView } from './view.js';

export interface RunControlOptions {
  readonly session: Session;
  readonly gate: ManualGate;
  readonly strategy: string;
  /** Wall clock. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly homeCurrency: string | undefined;
  readonly timeZone: string;
  /** The day's first readings kept across restarts (as a schedule keeps them); the hub's own first reading without. */
  readonly day?: AccountDay;
  /** Where people hear about the run (the chat); nowhere when omitted. */
  readonly notifier?: Notify & { stats(): NotifierStats };
  readonly notifierName?: string;
  /** Live runs with a known token expiry: people are told when it is near. */
  readonly tokenExpiresAt?: number;
  readonly requestTimeoutMs?: number;
}

const HALT_CODES = new Set(['DAILY_LOSS_HALT', 'DRAWDOWN_HALT']);
const GATE_CODES_HELD: ReadonlySet<string> = new Set(Object.values(GATE_CODES));
const TOKEN_WARNING_MS = 7 * 86_400_000;

export class RunControl implements BotControl {
  readonly kind = 'run';
  readonly mode: 'paper' | 'live';
  readonly name: string;
  readonly homeCurrency: string | undefined;
  readonly timeZone: string;
  readonly activity: Observable<Activity>;
  /** Set once the run is being stopped: connections closing then are no news. */
  stopping = false;
  private readonly local = new Subject<Activity>();
  private readonly subscriptions: Subscription[] = [];
  private readonly down = new Set<string>();
  private halted = false;

  constructor(private readonly options: RunControlOptions) {
    const { session } = options;
    this.mode = session.mode;
    this.name = options.strategy;
    this.homeCurrency = options.homeCurrency;
    this.timeZone = options.timeZone;
    this.activity = merge(
      session.events.pipe(map((event): Activity => ({ kind: 'runtime', event, source: session.runtime }))),
      session.connections.pipe(map((report): Activity => ({ kind: 'connection', name: report.connection, state: report.state }))),
      this.local,
    );
  }

  /** Starts telling people about the run. */
  start(): void {
    const { notifier, session, tokenExpiresAt, clock } = this.options;
    if (notifier === undefined) return;
    if (tokenExpiresAt !== undefined && tokenExpiresAt - clock.now() < TOKEN_WARNING_MS)
      notifier.notify({
        kind: 'token-expiry',
        message: `the access token expires ${new Date(tokenExpiresAt).toISOString()}: refresh it (trader token refresh) before then`,
        details: { expiresAt: new Date(tokenExpiresAt).toISOString() },
      });
    this.subscriptions.push(
      session.events.subscribe((event) => {
        if (event.type === 'fill') {
          const { fill } = event;
          notifier.notify({
            kind: 'fill',
            job: event.strategy,
            message: `${event.strategy}: ${fill.side} ${fill.quantity.toFixed()} ${fill.symbol} @ ${fill.price.toFixed()}`,
            details: {
              symbol: fill.symbol,
              side: fill.side,
              quantity: fill.quantity.toFixed(),
              price: fill.price.toFixed(),
              orderId: fill.orderId,
            },
          });
        } else if (event.type === 'denial' && !GATE_CODES_HELD.has(event.denial.code)) {
          // Intents held back by a person's pause or kill switch are no news to them (the page and journal have them).
          notifier.notify({
            kind: 'denial',
            job: event.strategy,
            message: `${event.strategy}: order denied (${event.denial.code}): ${event.denial.message}`,
            details: { code: event.denial.code, ...event.denial.figures },
          });
          if (HALT_CODES.has(event.denial.code) && !this.halted) {
            this.halted = true;
            notifier.notify({ kind: 'halt', job: event.strategy, message: `${event.strategy}: risk halt: ${event.denial.message}` });
          }
        } else if (event.type === 'strategy-failed') {
          notifier.notify({ kind: 'crash', job: event.strategy, message: `${event.strategy} failed: ${event.error}` });
        }
      }),
      session.connections.subscribe(({ connection, state }) => {
        if (state.status === 'reconnecting' && !this.down.has(connection)) {
          this.down.add(connection);
          notifier.notify({ kind: 'outage', message: `the ${connection} connection is lost (${state.reason}); reconnecting` });
        } else if (state.status === 'online' && this.down.delete(connection)) {
          notifier.notify({ kind: 'recovered', message: `the ${connection} connection is back` });
        } else if (state.status === 'closed' && !this.stopping) {
          notifier.notify({ kind: 'crash', message: `the ${connection} connection closed for good: ${state.reason}` });
        }
      }),
    );
  }

  close(): void {
    this.stopping = true;
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    this.local.complete();
  }

  async readAccount(): Promise<AccountFigures> {
    const { broker } = this.options.session.link;
    const { runtime } = this.options.session;
    const [balances, positions, orders] = await Promise.all([broker.accountBalance(), broker.positions(), broker.todayOrders()]);
    const { day, clock } = this.options;
    if (day?.observe(balances, clock.now())) day.save();
    const prices = new Map<string, Price>();
    for (const position of positions) {
      const price = runtime.lastPrice(position.symbol);
      if (price !== undefined) prices.set(position.symbol, price);
    }
    return { balances, positions, openOrders: orders.filter((order) => isOpen(order.status)), prices };
  }

  dayStart(currency: string): Money | undefined {
    return this.options.day?.dayStart(currency, this.options.clock.now());
  }

  jobs(): readonly JobView[] {
    const { gate, session } = this.options;
    const strategy = session.runtime.summary().strategies[0];
    return [
      {
        name: this.name,
        kind: 'strategy',
        state: gate.paused && strategy?.state === 'running' ? 'paused' : (strategy?.state ?? 'idle'),
        paused: gate.paused,
        next: undefined,
        lastResult: undefined,
        lastError: strategy?.error,
        canRunNow: false,
      },
    ];
  }

  killSwitch(): KillSwitchView {
    const tripped = this.options.gate.killSwitch;
    return {
      tripped: tripped !== undefined,
      reason: tripped?.reason,
      at: tripped === undefined ? undefined : new Date(tripped.at).toISOString(),
    };
  }

  marketTime(): number | undefined {
    return this.options.session.simulator?.marketClock.now();
  }

  notifiers(): ReadonlyMap<string, NotifierStats> {
    const { notifier, notifierName } = this.options;
    return notifier === undefined ? new Map() : new Map([[notifierName ?? 'telegram', notifier.stats()]]);
  }

  async cancelOrder(orderId: string): Promise<ControlOutcome> {
    const { session, clock } = this.options;
    try {
      await withTimeout(
        session.link.broker.cancelOrder(orderId),
        clock,
        this.options.requestTimeoutMs ?? 10_000,
        `cancel order ${orderId}`,
      );
      return { done: true, message: `cancel of order ${orderId} sent` };
    } catch (error) {
      return { done: false, message: `cannot cancel order ${orderId}: ${describe(error)}` };
    }
  }

  async flatten(symbol: SecuritySymbol): Promise<ControlOutcome> {
    const closing = await this.options.session.runtime.flatten(symbol, 'flatten by hand');
    return closing
      ? { done: true, message: `${symbol}: closing order sent (see fills and denials for how it went)` }
      : { done: false, message: `${symbol}: no position to close` };
  }

  async pauseJob(name: string): Promise<ControlOutcome> {
    if (name !== this.name) return this.unknown(name);
    const { gate } = this.options;
    if (gate.paused) return { done: false, message: `${name} is already paused` };
    gate.paused = true;
    this.options.session.runtime.recheckGate();
    this.options.logger.warn({ strategy: name }, `${name} paused: its new orders are held back until resumed`);
    this.local.next({ kind: 'jobs' });
    return { done: true, message: `${name} paused: its new orders are held back (open orders stay; cancel them if needed)` };
  }

  async resumeJob(name: string): Promise<ControlOutcome> {
    if (name !== this.name) return this.unknown(name);
    const { gate } = this.options;
    if (!gate.paused) return { done: false, message: `${name} is not paused` };
    gate.paused = false;
    this.options.logger.info({ strategy: name }, `${name} resumed`);
    this.local.next({ kind: 'jobs' });
    return { done: true, message: `${name} resumed` };
  }

  async runJobNow(name: string): Promise<ControlOutcome> {
    return { done: false, message: `${name} runs for as long as trader run does: there is nothing to start` };
  }

  async tripKillSwitch(reason: string): Promise<ControlOutcome> {
    const { gate, session, clock, logger, notifier } = this.options;
    if (gate.killSwitch !== undefined) return { done: false, message: `the kill switch is already tripped: ${gate.killSwitch.reason}` };
    gate.killSwitch = { reason, at: clock.now() };
    session.runtime.recheckGate();
    logger.error({ reason }, 'kill switch: new orders held back, open orders being cancelled');
    notifier?.notify({ kind: 'halt', message: `kill switch: ${reason}; new orders held back, open orders cancelled` });
    this.local.next({ kind: 'kill-switch' });
    const cancelled = await session.runtime.cancelOpenOrders();
    return { done: true, message: `kill switch tripped: new orders held back, ${cancelled} open order(s) being cancelled`, cancelled };
  }

  async resetKillSwitch(): Promise<ControlOutcome> {
    const { gate, logger, notifier } = this.options;
    if (gate.killSwitch === undefined) return { done: false, message: 'the kill switch is not tripped' };
    gate.killSwitch = undefined;
    this.halted = false;
    logger.warn('kill switch reset: the strategy may trade again');
    notifier?.notify({ kind: 'recovered', message: 'kill switch reset: the strategy may trade again' });
    this.local.next({ kind: 'kill-switch' });
    return { done: true, message: 'kill switch reset: the strategy may trade again' };
  }

  recordControl(detail: Readonly<Record<string, unknown>>): void {
    this.options.session.runtime.recordEvent(CONTROL_EVENT, detail);
  }

  private unknown(name: string): ControlOutcome {
    return { done: false, message: `no job named ${name} (this run's strategy is ${this.name})` };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
