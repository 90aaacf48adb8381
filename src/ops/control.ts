// The port every watcher of a bot goes through (dashboard, metrics, chat): what the bot is doing, as reads
// and as a stream of activity, and what a person may do to it. `trader run` (one session) and `trader
// schedule` (a service running jobs) implement it (run-control.ts, schedule-control.ts).
import type { Observable } from 'rxjs';
import type { AccountBalance, BrokerPosition, Money, Order, Price, SecuritySymbol } from '../domain/index.js';
import type { RuntimeEvent } from '../execution/events.js';
import type { ConnectionState } from '../openapi/socket/connection-state.js';
import type { NotifierStats } from '../schedule/queued-notifier.js';
import type { ControlOutcome } from '../schedule/supervisor.js';
import type { JobView, KillSwitchView } from './view.js';

export type { ControlOutcome } from '../schedule/supervisor.js';

/** The account as the broker reports it. */
export interface AccountFigures {
  readonly balances: readonly AccountBalance[];
  readonly positions: readonly BrokerPosition[];
  /** Orders not finished yet (ours and anyone else's). */
  readonly openOrders: readonly Order[];
  /** Last prices of the positions' symbols, where known. */
  readonly prices: ReadonlyMap<string, Price>;
}

/** The runtime an event came from: what it knew when it decided (decision price, tick time). */
export interface RuntimeProbe {
  lastPrice(symbol: SecuritySymbol): Price | undefined;
  readonly lastTickAt: number | undefined;
}

export type Activity =
  | { readonly kind: 'runtime'; readonly event: RuntimeEvent; readonly source: RuntimeProbe }
  /** undefined: the connection is gone (its session ended). */
  | { readonly kind: 'connection'; readonly name: string; readonly state: ConnectionState | undefined }
  | { readonly kind: 'jobs' }
  | { readonly kind: 'kill-switch' };

export interface BotControl {
  readonly kind: 'run' | 'schedule';
  readonly mode: 'paper' | 'live';
  readonly name: string;
  /** Currency the equity curve and the day's PnL follow (the home market's); the first balance's when undefined. */
  readonly homeCurrency: string | undefined;
  /** Time zone of the day the day's PnL counts in. */
  readonly timeZone: string;
  readonly activity: Observable<Activity>;
  readAccount(): Promise<AccountFigures>;
  jobs(): readonly JobView[];
  killSwitch(): KillSwitchView;
  /** The replay's market time in paper mode. */
  marketTime(): number | undefined;
  /** Notification channels and their queues, by name. */
  notifiers(): ReadonlyMap<string, NotifierStats>;
  /**
   * The net assets of `currency` at the day's first reading when the bot keeps it across restarts (a schedule
   * does, for its kill switch; a run beside its journal); undefined: the hub counts the day from its own first reading.
   */
  dayStart?(currency: string): Money | undefined;

  cancelOrder(orderId: string): Promise<ControlOutcome>;
  flatten(symbol: SecuritySymbol): Promise<ControlOutcome>;
  pauseJob(name: string): Promise<ControlOutcome>;
  resumeJob(name: string): Promise<ControlOutcome>;
  runJobNow(name: string): Promise<ControlOutcome>;
  tripKillSwitch(reason: string): Promise<ControlOutcome>;
  resetKillSwitch(): Promise<ControlOutcome>;
  /** Keeps a person's action and its outcome in the bot's journal (see control-action.ts). */
  recordControl(detail: Readonly<Record<string, unknown>>): void;
}
