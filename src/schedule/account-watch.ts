// The account across every job: balances and positions read from the broker on the Clock (and soon after
// fills), the kill switches of the risk config watched on the account's net assets over the whole schedule
// (a run's own watch starts afresh with each run), and the positions and PnL of the day for the status.
// The day's first figure and the peak are kept in a file (AccountDay), so a restart (or a crash loop) does
// not reset them.
import type { AccountBalance } from '../domain/account.js';
import type { BrokerPosition } from '../domain/position.js';
import type { Clock, TimerHandle } from '../domain/clock.js';
import { toWire } from '../domain/decimal.js';
import type { FixedPoint } from '../domain/fixed-point.js';
import { Money } from '../domain/money.js';
import type { Price } from '../domain/price.js';
import { currencyOf, type Market, type SecuritySymbol } from '../domain/symbol.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/config.js';
import { observeEquity, type Trip } from '../risk/equity-watch.js';
import { AccountDay } from './account-day.js';
import type { DayPnl, PortfolioProvider, PortfolioSnapshot, PositionLine } from './status.js';

/** The broker as the account watch reads it. */
export interface AccountSource {
  balances(): Promise<readonly AccountBalance[]>;
  positions(): Promise<readonly BrokerPosition[]>;
  /** Last prices, when the venue can tell (market value and unrealised PnL are left out otherwise). */
  prices?(symbols: readonly SecuritySymbol[]): Promise<ReadonlyMap<string, Price>>;
}

export interface AccountWatchOptions {
  readonly clock: Clock;
  readonly source: AccountSource;
  readonly limits: RiskLimits;
  /** Whose local day and currency the kill switches use (the first job's market). */
  readonly market: Market;
  readonly intervalMs: number;
  /** Where the day's first figures and the peak are kept (JSON). */
  readonly file?: string;
  /** A kill switch tripped (once per market day while it stays tripped). */
  readonly onTrip: (reason: string) => void;
  readonly logger?: Logger;
  /** How long after a fill the account is read again. Default 10 s (the account calls share the service's limits with trading). */
  readonly afterFillMs?: number;
}

export class AccountWatch implements PortfolioProvider {
  private readonly logger: Logger;
  private readonly currency: string;
  private readonly memory: AccountDay;
  /** The day a trip was last reported. */
  private reported: string | undefined;
  private latest: PortfolioSnapshot | undefined;
  private latestError: Error | undefined;
  private timer: TimerHandle | undefined;
  private soon: TimerHandle | undefined;
  private checking: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: AccountWatchOptions) {
    this.logger = options.logger ?? silentLogger;
    this.currency = currencyOf(options.market);
    this.memory = new AccountDay({
      market: options.market,
      logger: this.logger,
      ...(options.file === undefined ? {} : { file: options.file }),
    });
  }

  start(): Promise<void> {
    this.timer = this.options.clock.setInterval(() => void this.check(), this.options.intervalMs);
    return this.check();
  }

  /** Stops reading; resolves once a read under way has finished. */
  async stop(): Promise<void> {
    this.timer?.cancel();
    this.soon?.cancel();
    this.stopped = true;
    await this.checking;
  }

  /** A fill happened: read the account again shortly (several fills in a row cost one read). */
  refreshSoon(): void {
    if (this.soon !== undefined || this.stopped) return;
    this.soon = this.options.clock.setTimeout(() => {
      this.soon = undefined;
      void this.check();
    }, this.options.afterFillMs ?? 10_000);
  }

  /** The last figures read; throws what the last read failed with when none could be read yet. */
  async snapshot(): Promise<PortfolioSnapshot> {
    if (this.latest === undefined) throw this.latestError ?? new Error('the account has not been read yet');
    return this.latest;
  }

  /** One read of the account; a read already under way is joined. Never throws (failures are logged). */
  check(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.checking ??= this.read().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** The net assets of `currency` at the day's first reading (kept across restarts); undefined on another day or before it. */
  dayStart(currency: string): Money | undefined {
    return this.memory.dayStart(currency, this.options.clock.now());
  }

  private async read(): Promise<void> {
    const { source, clock } = this.options;
    try {
      const [balances, positions] = await Promise.all([source.balances(), source.positions()]);
      const held = positions.filter((position) => !position.quantity.isZero());
      const prices =
        held.length === 0 || source.prices === undefined
          ? new Map<string, Price>()
          : await source.prices(held.map((position) => position.symbol)).catch(() => new Map<string, Price>());
      const now = clock.now();
      this.observe(balances, now);
      this.latest = {
        asOf: new Date(now).toISOString(),
        positions: held.map((position) => positionLine(position, prices.get(position.symbol))),
        pnlToday: this.pnl(balances, now),
      };
      this.latestError = undefined;
      this.memory.save();
      this.watchTrips();
    } catch (error) {
      this.latestError = error instanceof Error ? error : new Error(String(error));
      this.logger.warn({ error: this.latestError.message }, 'cannot read the account (balances, positions)');
    }
  }

  private observe(balances: readonly AccountBalance[], now: number): void {
    this.memory.observe(balances, now);
    const home = balances.find((balance) => balance.currency === this.currency) ?? balances[0];
    if (home !== undefined && (this.options.limits.dailyLossLimit !== undefined || this.options.limits.maxDrawdown !== undefined)) {
      this.memory.equity = observeEquity(this.memory.equity, home.netAssets, now, this.memory.zone, this.options.limits);
    }
  }

  private watchTrips(): void {
    const { dailyTrip, drawdownTrip } = this.memory.equity;
    if (this.reported === this.memory.day) return;
    const reason =
      dailyTrip !== undefined
        ? describeTrip('daily loss', 'dailyLossLimit', dailyTrip, 'day start')
        : drawdownTrip !== undefined
          ? describeTrip('drawdown', 'maxDrawdown', drawdownTrip, 'peak')
          : undefined;
    if (reason === undefined) return;
    this.reported = this.memory.day;
    this.options.onTrip(reason);
  }

  private pnl(balances: readonly AccountBalance[], now: number): DayPnl[] {
    return balances.map((balance) => {
      const start = this.memory.dayStart(balance.currency, now) ?? balance.netAssets;
      return {
        currency: balance.currency,
        netAssets: money(balance.netAssets),
        dayStart: money(start),
        change: money(balance.netAssets.minus(start)),
      };
    });
  }
}

function positionLine(position: BrokerPosition, price: Price | undefined): PositionLine {
  const base = {
    symbol: position.symbol,
    quantity: position.quantity.toString(),
    averageCost: money(position.costPrice),
    currency: position.currency,
  };
  if (price === undefined) return base;
  return {
    ...base,
    marketValue: money(Money.notional(position.quantity, price, position.currency)),
    unrealizedPnl: money(Money.notional(position.quantity, price.minus(position.costPrice), position.currency)),
  };
}

function describeTrip(what: string, limit: string, trip: Trip, reference: string): string {
  return `${what} ${toWire(trip.loss)} reached ${limit} ${toWire(trip.limit)} (net assets ${toWire(trip.netAssets)}, ${reference} ${toWire(trip.reference)})`;
}

function money(value: FixedPoint): string {
  return value.toFixed(2);
}
