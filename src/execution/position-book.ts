// The executor's book: positions from fills (and from the broker on reconciliation), the latest account
// balances, and a cash estimate per currency moved by fills between balance fetches.
import {
  ZERO,
  applyFill,
  currencyOf,
  flatPosition,
  marketOf,
  type AccountBalance,
  type BrokerPosition,
  type Decimal,
  type Fill,
  type Position,
  type SecuritySymbol,
} from '../domain/index.js';
import { eq, minus, plus, times } from '../domain/decimal-shortcuts.js';

export interface PositionDifference {
  readonly symbol: SecuritySymbol;
  readonly expected: Decimal;
  readonly reported: Decimal;
}

export interface CashDifference {
  readonly currency: string;
  readonly expected: Decimal;
  readonly reported: Decimal;
}

export class PositionBook {
  private readonly positions = new Map<SecuritySymbol, Position>();
  private balances: readonly AccountBalance[] = [];
  private readonly cash = new Map<string, Decimal>();
  private fillsSinceCashSync = 0;

  quantity(symbol: SecuritySymbol): Decimal {
    return this.positions.get(symbol)?.quantity ?? ZERO;
  }

  get(symbol: SecuritySymbol): Position | undefined {
    return this.positions.get(symbol);
  }

  all(): readonly Position[] {
    return [...this.positions.values()];
  }

  applyFill(fill: Fill): Position {
    const position = applyFill(this.positions.get(fill.symbol) ?? flatPosition(fill.symbol), fill);
    this.positions.set(fill.symbol, position);
    const currency = currencyOf(marketOf(fill.symbol));
    const cash = this.cash.get(currency);
    if (cash !== undefined) {
      const value = times(fill.quantity, fill.price);
      this.cash.set(currency, minus(fill.side === 'Buy' ? minus(cash, value) : plus(cash, value), fill.commission));
    }
    this.fillsSinceCashSync += 1;
    return position;
  }

  /**
   * Starts from positions kept from an earlier run (the journal's): quantities and average costs, so fills
   * found on restart are booked against them; realised PnL counts from this run on.
   */
  seed(positions: readonly Position[]): void {
    for (const position of positions)
      if (!position.quantity.isZero()) this.positions.set(position.symbol, { ...position, realizedPnl: ZERO });
  }

  /** Differences between this book and the broker's positions (symbols missing on either side count as flat). */
  compare(reported: readonly BrokerPosition[]): readonly PositionDifference[] {
    const totals = totalsBySymbol(reported);
    const symbols = new Set<SecuritySymbol>([...this.positions.keys(), ...totals.keys()]);
    const differences: PositionDifference[] = [];
    for (const symbol of symbols) {
      const expected = this.quantity(symbol);
      const broker = totals.get(symbol)?.quantity ?? ZERO;
      if (!expected.eq(broker)) differences.push({ symbol, expected, reported: broker });
    }
    return differences;
  }

  /** Takes the broker's quantities (and its cost price where the quantity changes); realised PnL is kept. */
  adopt(reported: readonly BrokerPosition[]): void {
    const totals = totalsBySymbol(reported);
    for (const [symbol, position] of this.positions) {
      if (!totals.has(symbol) && !position.quantity.isZero())
        this.positions.set(symbol, { ...position, quantity: ZERO, averageCost: ZERO });
    }
    for (const [symbol, total] of totals) {
      const current = this.positions.get(symbol) ?? flatPosition(symbol);
      if (current.quantity.eq(total.quantity)) continue;
      this.positions.set(symbol, { ...current, quantity: total.quantity, averageCost: total.costPrice });
    }
  }

  /**
   * Takes fresh balances. Returns the cash estimates they contradict, but only when no fill happened since
   * the last sync: fills carry no fees, so a difference after fills is expected and not a mismatch.
   */
  setBalances(balances: readonly AccountBalance[]): readonly CashDifference[] {
    const differences: CashDifference[] = [];
    for (const balance of balances) {
      const expected = this.cash.get(balance.currency);
      if (this.fillsSinceCashSync === 0 && expected !== undefined && !eq(expected, balance.totalCash)) {
        differences.push({ currency: balance.currency, expected, reported: balance.totalCash });
      }
      this.cash.set(balance.currency, balance.totalCash);
    }
    this.balances = balances;
    this.fillsSinceCashSync = 0;
    return differences;
  }

  balance(currency?: string): AccountBalance | undefined {
    return currency === undefined ? this.balances[0] : this.balances.find((balance) => balance.currency === currency);
  }

  cashIn(currency?: string): Decimal {
    const key = currency ?? this.balances[0]?.currency;
    return (key === undefined ? undefined : this.cash.get(key)) ?? ZERO;
  }
}

function totalsBySymbol(reported: readonly BrokerPosition[]): Map<SecuritySymbol, { quantity: Decimal; costPrice: Decimal }> {
  const totals = new Map<SecuritySymbol, { quantity: Decimal; costPrice: Decimal }>();
  for (const position of reported) {
    const known = totals.get(position.symbol);
    if (known === undefined) totals.set(position.symbol, { quantity: position.quantity, costPrice: position.costPrice });
    else {
      const quantity = known.quantity.plus(position.quantity);
      const costPrice = quantity.isZero()
        ? ZERO
        : known.quantity.times(known.costPrice).plus(position.quantity.times(position.costPrice)).dividedBy(quantity);
      totals.set(position.symbol, { quantity, costPrice });
    }
  }
  return totals;
}
