// What the dashboard shows, in JSON-ready form (money and quantities as exact decimal strings, times as ISO
// strings, equity points in epoch seconds for the chart): the state one page load fetches, section by section.

export interface BotView {
  readonly kind: 'run' | 'schedule';
  readonly mode: 'paper' | 'live';
  /** The strategy (run) or the config file (schedule). */
  readonly name: string;
  readonly startedAt: string;
  readonly readOnly: boolean;
  /** The replay's market time in paper mode. */
  readonly marketTime: string | undefined;
}

export interface BalanceView {
  readonly currency: string;
  readonly totalCash: string;
  readonly netAssets: string;
  readonly buyPower: string;
}

export interface AccountView {
  readonly balances: readonly BalanceView[];
  /** Net assets now against the first figure of the local day (kept across restarts; else this process's first). */
  readonly dayPnl: { readonly currency: string; readonly change: string } | undefined;
  readonly asOf: string | undefined;
  /** Why the figures are stale, when the last read failed. */
  readonly error: string | undefined;
}

export interface PositionView {
  readonly symbol: string;
  readonly quantity: string;
  readonly averageCost: string;
  readonly lastPrice: string | undefined;
  readonly marketValue: string | undefined;
  readonly unrealizedPnl: string | undefined;
  readonly currency: string;
}

export interface OrderView {
  readonly orderId: string;
  readonly symbol: string;
  readonly side: string;
  readonly orderType: string;
  readonly quantity: string;
  readonly price: string | undefined;
  readonly executedQuantity: string;
  readonly status: string;
  /** The order's remark: our client order id, or what another tool wrote. */
  readonly tag: string;
  readonly submittedAt: string;
}

export interface FillView {
  readonly fillId: string;
  readonly time: string;
  readonly strategy: string;
  readonly symbol: string;
  readonly side: string;
  readonly quantity: string;
  readonly price: string;
  readonly orderId: string;
  /** The intent's tag, or the order's client order id when the intent had none. */
  readonly tag: string;
  /** Against the price the strategy decided on, in basis points; positive = worse for us. */
  readonly slippageBps: number | undefined;
}

export interface DenialView {
  readonly time: string;
  readonly strategy: string;
  readonly symbol: string | undefined;
  readonly code: string;
  readonly message: string;
  readonly figures: Readonly<Record<string, string>>;
}

export interface EquityView {
  readonly currency: string | undefined;
  /** Epoch seconds and net assets; one point per second at most. */
  readonly points: readonly { readonly time: number; readonly value: number }[];
}

export interface JobView {
  readonly name: string;
  readonly kind: 'window' | 'cron' | 'strategy';
  readonly state: string;
  readonly paused: boolean;
  readonly next: { readonly at: string; readonly trigger: string } | undefined;
  readonly lastResult: { readonly at: string; readonly outcome: string; readonly message: string | undefined } | undefined;
  readonly lastError: string | undefined;
  readonly canRunNow: boolean;
}

export interface ConnectionView {
  readonly name: string;
  readonly status: 'connecting' | 'online' | 'reconnecting' | 'closed';
  readonly detail: string | undefined;
  readonly since: string;
}

export interface KillSwitchView {
  readonly tripped: boolean;
  readonly reason: string | undefined;
  readonly at: string | undefined;
}

export interface LogLine {
  readonly time: string;
  readonly level: string;
  readonly message: string;
  /** The line's other fields, as compact JSON (secrets already redacted by the logger). */
  readonly fields: string;
}

export interface DashboardState {
  readonly bot: BotView;
  readonly account: AccountView;
  readonly positions: readonly PositionView[];
  readonly orders: readonly OrderView[];
  readonly fills: readonly FillView[];
  readonly denials: readonly DenialView[];
  readonly equity: EquityView;
  readonly jobs: readonly JobView[];
  readonly connections: readonly ConnectionView[];
  readonly killSwitch: KillSwitchView;
  readonly logs: readonly LogLine[];
}

export type Section = keyof DashboardState;

export const SECTIONS: readonly Section[] = [
  'bot',
  'account',
  'positions',
  'orders',
  'fills',
  'denials',
  'equity',
  'jobs',
  'connections',
  'killSwitch',
  'logs',
];
