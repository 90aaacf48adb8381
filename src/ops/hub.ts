// The state of a bot as the dashboard, the metrics and the chat see it, kept up to date from its activity:
// recent fills (once each, however many sessions report them), denials, connection states, the account read
// from the broker after every order change (at most one read in flight, at least `refreshGapMs` apart, so
// watching never crowds out trading's own calls) and on an interval, the equity curve and the day's PnL.
import { Subject, type Subscription } from 'rxjs';
import { Money, type Clock, type Price, type TimerHandle } from '../domain/index.js';
import { ratioOf } from '../domain/decimal.js';
import { localDate } from '../domain/time-zone.js';
import type { RuntimeEvent } from '../execution/events.js';
import type { Logger } from '../log/logger.js';
import type { ConnectionState } from '../openapi/socket/connection-state.js';
import type { Activity, AccountFigures, BotControl, RuntimeProbe } from './control.js';
import { balanceViews, orderViews, positionViews } from './account-views.js';
import type { OpsFact } from './facts.js';
import type { LogTail } from './log-tail.js';
import { Ring } from './ring.js';
import type {
  AccountView,
  ConnectionView,
  DashboardState,
  DenialView,
  EquityView,
  FillView,
  OrderView,
  PositionView,
  Section,
} from './view.js';

export interface HubOptions {
  readonly control: BotControl;
  /** Wall clock: read intervals, tick-to-order, equity times. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly logs?: LogTail;
  readonly readOnly?: boolean;
  /** The account is read this often besides after order changes; 0 turns it off. Default 15 s. */
  readonly refreshEveryMs?: number;
  /** Least time between two reads of the account. Default 2 s. */
  readonly refreshGapMs?: number;
  readonly fillLimit?: number;
  readonly denialLimit?: number;
  readonly equityLimit?: number;
}

interface Decision {
  readonly price: Price | undefined;
  readonly tickAt: number | undefined;
}

const SEEN_LIMIT = 10_000;

export class OpsHub {
  /** Sections whose content changed (many changes in one turn may name a section several times). */
  readonly changes = new Subject<Section>();
  readonly facts = new Subject<OpsFact>();
  private readonly control: BotControl;
  private readonly clock: Clock;
  private readonly startedAt: number;
  private readonly fills: Ring<FillView>;
  private readonly denials: Ring<DenialView>;
  private readonly equity: Ring<{ time: number; value: number }>;
  private readonly seenFills = new Set<string>();
  private readonly seenTransitions = new Set<string>();
  private readonly decisions = new Map<string, Decision>();
  private readonly pendingIntent = new Map<RuntimeProbe, Decision>();
  private readonly connections = new Map<string, ConnectionView>();
  private readonly subscriptions: Subscription[] = [];
  private figures: AccountFigures | undefined;
  private account: AccountView = { balances: [], dayPnl: undefined, asOf: undefined, error: undefined };
  private dayStart: { day: string; value: Money } | undefined;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  private gapTimer: TimerHandle | undefined;
  private interval: TimerHandle | undefined;
  private closed = false;

  constructor(private readonly options: HubOptions) {
    this.control = options.control;
    this.clock = options.clock;
    this.startedAt = options.clock.now();
    this.fills = new Ring(options.fillLimit ?? 200);
    this.denials = new Ring(options.denialLimit ?? 200);
    this.equity = new Ring(options.equityLimit ?? 5000);
  }

  start(): void {
    this.subscriptions.push(this.control.activity.subscribe((activity) => this.take(activity)));
    if (this.options.logs !== undefined) this.subscriptions.push(this.options.logs.lines.subscribe(() => this.changes.next('logs')));
    const every = this.options.refreshEveryMs ?? 15_000;
    if (every > 0) this.interval = this.clock.setInterval(() => this.refresh(), every);
    this.refresh();
  }

  close(): void {
    this.closed = true;
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    this.interval?.cancel();
    this.gapTimer?.cancel();
    this.changes.complete();
    this.facts.complete();
  }

  /** Reads the account again soon: now, or once `refreshGapMs` has passed since the last read. */
  refresh(): void {
    if (this.closed) return;
    if (this.reading !== undefined) {
      this.readAgain = true;
      return;
    }
    const wait = this.lastReadAt + (this.options.refreshGapMs ?? 2000) - this.clock.now();
    if (wait > 0) {
      this.gapTimer ??= this.clock.setTimeout(() => {
        this.gapTimer = undefined;
        this.refresh();
      }, wait);
      return;
    }
    this.lastReadAt = this.clock.now();
    this.reading = this.read().finally(() => {
      this.reading = undefined;
      if (this.readAgain) {
        this.readAgain = false;
        this.refresh();
      }
    });
  }

  /** Resolves once no account read is in flight or waiting (tests, and answers that need fresh figures). */
  async settled(): Promise<void> {
    while (this.reading !== undefined || this.readAgain) await (this.reading ?? Promise.resolve());
  }

  state(): DashboardState {
    return {
      bot: this.section('bot') as DashboardState['bot'],
      account: this.account,
      positions: this.positions(),
      orders: this.orders(),
      fills: this.fills.newestFirst(),
      denials: this.denials.newestFirst(),
      equity: this.equityView(),
      jobs: this.control.jobs(),
      connections: [...this.connections.values()],
      killSwitch: this.control.killSwitch(),
      logs: this.options.logs?.recent() ?? [],
    };
  }

  section(name: Section): unknown {
    switch (name) {
      case 'bot': {
        const market = this.control.marketTime();
        return {
          kind: this.control.kind,
          mode: this.control.mode,
          name: this.control.name,
          startedAt: iso(this.startedAt),
          readOnly: this.options.readOnly === true,
          marketTime: market === undefined ? undefined : iso(market),
        };
      }
      case 'account':
        return this.account;
      case 'positions':
        return this.positions();
      case 'orders':
        return this.orders();
      case 'fills':
        return this.fills.newestFirst();
      case 'denials':
        return this.denials.newestFirst();
      case 'equity':
        return this.equityView();
      case 'jobs':
        return this.control.jobs();
      case 'connections':
        return [...this.connections.values()];
      case 'killSwitch':
        return this.control.killSwitch();
      case 'logs':
        return this.options.logs?.recent() ?? [];
    }
  }

  /** The net assets of the home currency now and the day's change (for metrics and chat). */
  equityNow(): { currency: string; netAssets: Money; dayChange: Money } | undefined {
    const balance = this.homeBalance();
    if (balance === undefined) return undefined;
    return {
      currency: balance.currency,
      netAssets: balance.netAssets,
      dayChange:
        this.dayStart === undefined ? Money.zero(balance.currency) : balance.netAssets.minus(this.dayStart.value.in(balance.currency)),
    };
  }

  connectionStates(): readonly ConnectionView[] {
    return [...this.connections.values()];
  }

  private take(activity: Activity): void {
    switch (activity.kind) {
      case 'runtime':
        this.takeEvent(activity.event, activity.source);
        break;
      case 'connection':
        this.takeConnection(activity.name, activity.state);
        break;
      case 'jobs':
        this.changes.next('jobs');
        break;
      case 'kill-switch':
        this.changes.next('killSwitch');
        this.refresh();
        break;
    }
  }

  private takeEvent(event: RuntimeEvent, source: RuntimeProbe): void {
    switch (event.type) {
      case 'intent':
        this.pendingIntent.set(source, {
          price: event.intent.symbol === undefined ? undefined : source.lastPrice(event.intent.symbol),
          tickAt: source.lastTickAt,
        });
        break;
      case 'order-submitted': {
        const decided = this.pendingIntent.get(source);
        this.pendingIntent.delete(source);
        const decision = {
          price: decided?.price ?? source.lastPrice(event.request.symbol) ?? event.request.price,
          tickAt: decided?.tickAt,
        };
        remember(this.decisions, event.clientOrderId, decision);
        if (decision.tickAt !== undefined) {
          const elapsed = this.clock.now() - decision.tickAt;
          if (elapsed >= 0) this.facts.next({ kind: 'tick-to-order', seconds: elapsed / 1000 });
        }
        this.facts.next({ kind: 'order-submitted', strategy: event.strategy, side: event.request.side });
        this.refresh();
        break;
      }
      case 'order-updated': {
        const key = `${event.clientOrderId}:${event.status}`;
        if (this.seenTransitions.has(key)) break;
        rememberKey(this.seenTransitions, key);
        if (event.status === 'RejectedStatus') this.facts.next({ kind: 'rejection', strategy: event.strategy });
        this.refresh();
        break;
      }
      case 'fill':
        this.takeFill(event);
        break;
      case 'denial':
        this.denials.push({
          time: iso(this.clock.now()),
          strategy: event.strategy,
          symbol: event.intent.symbol,
          code: event.denial.code,
          message: event.denial.message,
          figures: event.denial.figures,
        });
        this.facts.next({ kind: 'denial', strategy: event.strategy, code: event.denial.code });
        this.changes.next('denials');
        break;
      default:
        break;
    }
  }

  private takeFill(event: Extract<RuntimeEvent, { type: 'fill' }>): void {
    const { fill } = event;
    if (this.seenFills.has(fill.fillId)) return;
    rememberKey(this.seenFills, fill.fillId);
    const decided = this.decisions.get(event.clientOrderId)?.price;
    const slippageBps = decided === undefined || decided.isZero() ? undefined : slippage(fill.side, fill.price, decided);
    this.fills.push({
      fillId: fill.fillId,
      time: iso(this.clock.now()),
      strategy: event.strategy,
      symbol: fill.symbol,
      side: fill.side,
      quantity: fill.quantity.toFixed(),
      price: fill.price.toFixed(),
      orderId: fill.orderId,
      tag: event.tag ?? event.clientOrderId,
      slippageBps,
    });
    this.facts.next({ kind: 'fill', strategy: event.strategy, side: fill.side, slippageBps });
    this.changes.next('fills');
    this.refresh();
  }

  private takeConnection(name: string, state: ConnectionState | undefined): void {
    if (state === undefined) {
      if (this.connections.delete(name)) this.changes.next('connections');
      return;
    }
    const previous = this.connections.get(name);
    if (state.status === 'reconnecting' && previous?.status !== 'reconnecting') this.facts.next({ kind: 'reconnect', connection: name });
    const detail =
      state.status === 'reconnecting'
        ? `attempt ${state.attempt}: ${state.reason}`
        : state.status === 'closed'
          ? state.reason
          : state.status === 'online' && state.reconnected
            ? 'reconnected'
            : undefined;
    const since = previous?.status === state.status ? previous.since : iso(this.clock.now());
    this.connections.set(name, { name, status: state.status, detail, since });
    this.changes.next('connections');
  }

  private async read(): Promise<void> {
    try {
      this.figures = await this.control.readAccount();
      const now = this.clock.now();
      const home = this.homeBalance();
      if (home !== undefined) {
        const day = localDate(now, this.control.timeZone);
        const kept = this.control.dayStart?.(home.currency);
        if (kept !== undefined) this.dayStart = { day, value: kept };
        else if (this.dayStart?.day !== day) this.dayStart = { day, value: home.netAssets };
        const point = { time: Math.floor(now / 1000), value: home.netAssets.toNumber() };
        if (this.equity.last?.time === point.time) this.equity.replaceLast(point);
        else this.equity.push(point);
      }
      this.account = {
        balances: balanceViews(this.figures),
        dayPnl:
          home === undefined || this.dayStart === undefined
            ? undefined
            : { currency: home.currency, change: home.netAssets.minus(this.dayStart.value).toFixed(2) },
        asOf: iso(now),
        error: undefined,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.logger.warn({ error: message }, 'dashboard: cannot read the account');
      this.account = { ...this.account, error: message };
    }
    for (const section of ['bot', 'account', 'positions', 'orders', 'equity'] as const) this.changes.next(section);
  }

  private homeBalance() {
    const balances = this.figures?.balances ?? [];
    const currency = this.control.homeCurrency;
    return (currency === undefined ? undefined : balances.find((balance) => balance.currency === currency)) ?? balances[0];
  }

  private positions(): PositionView[] {
    return this.figures === undefined ? [] : positionViews(this.figures);
  }

  private orders(): OrderView[] {
    return this.figures === undefined ? [] : orderViews(this.figures);
  }

  private equityView(): EquityView {
    return { currency: this.homeBalance()?.currency, points: this.equity.toArray() };
  }
}

/** Basis points the fill is worse than the decision price (buying dearer, selling cheaper). */
export function slippage(side: string, filled: Price, decided: Price): number {
  const difference = side === 'Buy' ? filled.minus(decided) : decided.minus(filled);
  return Math.round(ratioOf(difference, decided) * 10_000 * 100) / 100;
}

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.set(key, value);
  if (map.size > SEEN_LIMIT) map.delete(map.keys().next().value!);
}

function rememberKey(set: Set<string>, key: string): void {
  set.add(key);
  if (set.size > SEEN_LIMIT) set.delete(set.values().next().value!);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
