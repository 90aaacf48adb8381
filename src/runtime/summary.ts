// What a run did, for the end-of-run printout: counts, strategy states, positions and PnL per currency.
import { Money, currencyOf, marketOf, unrealizedPnl, type Price, type Quantity, type SecuritySymbol } from '../domain/index.js';
import type { Executor } from '../execution/executor.js';
import type { StrategyFailure } from '../strategy/failure.js';
import type { StrategyHost, StrategyState } from './strategy-host.js';
import { listOf } from '../domain/list-of.js';

export interface PositionSummary {
  readonly symbol: SecuritySymbol;
  readonly quantity: Quantity;
  readonly averageCost: Price;
  readonly realizedPnl: Money;
  /** Last candle close or quote; undefined when none was seen. */
  readonly lastPrice: Price | undefined;
  readonly unrealizedPnl: Money | undefined;
}

export interface RuntimeSummary {
  readonly intents: number;
  readonly orders: number;
  readonly fills: number;
  readonly denials: number;
  readonly openOrders: number;
  readonly strategies: readonly {
    readonly name: string;
    readonly source: string;
    readonly state: StrategyState;
    readonly error: string | undefined;
    readonly failure: StrategyFailure | undefined;
  }[];
  readonly positions: readonly PositionSummary[];
  /** Realised PnL of this run's fills and unrealised PnL at the last price, per currency. */
  readonly pnl: readonly { readonly currency: string; readonly realized: Money; readonly unrealized: Money }[];
}

export function summarize(executor: Executor, hosts: readonly StrategyHost[]): RuntimeSummary {
  const positions = listOf(executor.book.all(), (position): PositionSummary => {
    const lastPrice = executor.prices.price(position.symbol);
    return { ...position, lastPrice, unrealizedPnl: lastPrice === undefined ? undefined : unrealizedPnl(position, lastPrice) };
  });
  const pnl = new Map<string, { currency: string; realized: Money; unrealized: Money }>();
  for (const position of positions) {
    const currency = currencyOf(marketOf(position.symbol));
    const zero = Money.zero(currency);
    const entry = pnl.get(currency) ?? { currency, realized: zero, unrealized: zero };
    pnl.set(currency, {
      currency,
      realized: entry.realized.plus(position.realizedPnl),
      unrealized: entry.unrealized.plus(position.unrealizedPnl ?? zero),
    });
  }
  return {
    ...executor.counts,
    openOrders: executor.tracker.open().length,
    strategies: hosts.map((host) => ({
      name: host.name,
      source: host.strategy.source,
      state: host.state,
      error: host.error,
      failure: host.failure,
    })),
    positions,
    pnl: [...pnl.values()],
  };
}
