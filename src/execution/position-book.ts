// The executor's book: positions from fills (and from the broker on reconciliation), the latest account
// balances, and a cash estimate per currency moved by fills between balance fetches.
import {
  Money,
  NO_CURRENCY,
  Quantity,
  applyFill,
  currencyOf,
  flatPosition,
  marketOf,
  positionAt,
  type AccountBalance,
  type BrokerPosition,
  type Fill,
  type Position,
  Price,
  type SecuritySymbol,
} from '../domain/index.js';

export interface PositionDifference {
  readonly symbol: SecuritySymbol;
  readonly expected: Quantity;
  readonly reported: Quantity;
}

export interface CashDifference {
  readonly currency: string;
  readonly expected: Money;
  readonly reported: Money;
}

const NO_DIFFERENCES: readonly CashDifference[] = [];

export class PositionBook {
  private readonly positions = new Map<SecuritySymbol, Position>();
  private balances: readonly AccountBalance[] = [];
  private readonly cash = new Map<string, Money>();
  private fillsSinceCashSync = 0;

  quantity(symbol: SecuritySymbol): Quantity {
    return this.positions.get(symbol)?.quantity ?? Quantity.ZERO;
  }

  get(symbol: SecuritySymbol): Position | undefined {
    return this.positions.get(symbol);
  }

  all(): readonly Position[] {
    return [...this.positions.values()];
  }

  applyFill(fill: Fill): Position {
    const currency = currencyOf(marketOf(fill.symbol));
    const value = Money.notional(fill.quantity, fill.price, currency);
    const position = applyFill(this.positions.get(fill.symbol) ?? flatPosition(fill.symbol), fill, value);
    this.positions.set(fill.symbol, position);
    const cash = this.cash.get(currency);
    if (cash !== undefined) this.cash.set(currency, (fill.side === 'Buy' ? cash.minus(value) : cash.plus(value)).minus(fill.commission));
    this.fillsSinceCashSync += 1;
    return position;
  }

  /**
   * Starts from positions kept from an earlier run (the journal's): quantities and average costs, so fills
   * found on restart are booked against them; realised PnL counts from this run on.
   */
  seed(positions: readonly Position[]): void {
    for (const position of positions)
      if (!position.quantity.isZero())
        this.positions.set(position.symbol, { ...position, realizedPnl: Money.zero(position.realizedPnl.currency) });
  }

  /** Differences between this book and the broker's positions (symbols missing on either side count as flat). */
  compare(reported: readonly BrokerPosition[]): readonly PositionDifference[] {
    const totals = totalsBySymbol(reported);
    const symbols = new Set<SecuritySymbol>([...this.positions.keys(), ...totals.keys()]);
    const differences: PositionDifference[] = [];
    for (const symbol of symbols) {
      const expected = this.quantity(symbol);
      const broker = totals.get(symbol)?.quantity ?? Quantity.ZERO;
      if (!expected.eq(broker)) differences.push({ symbol, expected, reported: broker });
    }
    return differences;
  }

  /**
   * Takes the broker's position in one symbol after it booked carry on it (a split multiplies the quantity
   * and divides the cost price); realised PnL is kept.
   */
  takePosition(symbol: SecuritySymbol, quantity: Quantity, costPrice: Price): void {
    const current = this.positions.get(symbol);
    if (current === undefined && quantity.isZero()) return;
    const realized = current?.realizedPnl ?? Money.zero(currencyOf(marketOf(symbol)));
    this.positions.set(symbol, positionAt(symbol, quantity, quantity.isZero() ? Price.ZERO : costPrice, realized));
  }

  /** Takes the broker's quantities (and its cost price where the quantity changes); realised PnL is kept. */
  adopt(reported: readonly BrokerPosition[]): void {
    const totals = totalsBySymbol(reported);
    for (const [symbol, position] of this.positions) {
      if (!totals.has(symbol) && !position.quantity.isZero())
        this.positions.set(symbol, { ...flatPosition(symbol), realizedPnl: position.realizedPnl });
    }
    for (const [symbol, total] of totals) {
      const current = this.positions.get(symbol) ?? flatPosition(symbol);
      if (current.quantity.eq(total.quantity)) continue;
      this.positions.set(symbol, positionAt(symbol, total.quantity, total.costPrice, current.realizedPnl));
    }
  }

  /**
   * Takes fresh balances. Returns the cash estimates they contradict, but only when no fill happened since
   * the last sync: fills carry no fees, so a difference after fills is expected and not a mismatch.
   */
  setBalances(balances: readonly AccountBalance[]): readonly CashDifference[] {
    // Made only for a difference: every opening order of a backtest sets balances, and they agree.
    let differences: CashDifference[] | undefined;
    for (const balance of balances) {
      const expected = this.cash.get(balance.currency);
      if (this.fillsSinceCashSync === 0 && expected !== undefined && !expected.eq(balance.totalCash)) {
        (differences ??= []).push({ currency: balance.currency, expected, reported: balance.totalCash });
      }
      this.cash.set(balance.currency, balance.totalCash);
    }
    this.balances = balances;
    this.fillsSinceCashSync = 0;
    return differences ?? NO_DIFFERENCES;
  }

  /** The broker's cash in one currency, read right after a fill (its fees paid), without the other figures. */
  takeCash(cash: Money): void {
    this.cash.set(cash.currency, cash);
  }

  /** Cash the broker booked outside fills (a dividend, a borrow fee; signed), moving the estimate by it. */
  moveCash(amount: Money): void {
    const cash = this.cash.get(amount.currency);
    if (cash !== undefined) this.cash.set(amount.currency, cash.plus(amount));
  }

  balance(currency?: string): AccountBalance | undefined {
    return currency === undefined ? this.balances[0] : this.balances.find((balance) => balance.currency === currency);
  }

  cashIn(currency?: string): Money {
    const key = currency ?? this.balances[0]?.currency;
    return (key === undefined ? undefined : this.cash.get(key)) ?? Money.zero(key ?? NO_CURRENCY);
  }
}

function totalsBySymbol(reported: readonly BrokerPosition[]): Map<SecuritySymbol, { quantity: Quantity; costPrice: Price }> {
  const totals = new Map<SecuritySymbol, { quantity: Quantity; cost: Money }>();
  for (const position of reported) {
    const currency = currencyOf(marketOf(position.symbol));
    const cost = Money.notional(position.quantity, position.costPrice, currency);
    const known = totals.get(position.symbol);
    totals.set(
      position.symbol,
      known === undefined
        ? { quantity: position.quantity, cost }
        : { quantity: known.quantity.plus(position.quantity), cost: known.cost.plus(cost) },
    );
  }
  const result = new Map<SecuritySymbol, { quantity: Quantity; costPrice: Price }>();
  for (const [symbol, { quantity, cost }] of totals)
    result.set(symbol, { quantity, costPrice: quantity.isZero() ? Price.ZERO : Price.average(cost, quantity) });
  return result;
}
