// Positions and their arithmetic: signed quantity (negative = short), what the open quantity cost, realised
// PnL. All exact: the cost of the open quantity is kept as a sum, so closing a position realises exactly
// what it cost; only a partial close divides (its share of the cost, rounded half-even at places the
// fill's value has plus EXTRA_PLACES), and what it takes off the cost is what it realises.
import { EXTRA_PLACES } from './fixed-raw.js';
import { Price } from './price.js';
import { Money } from './money.js';
import type { Side } from './order-types.js';
import { Quantity } from './quantity.js';
import { currencyOf, marketOf, type SecuritySymbol } from './symbol.js';

export interface Position {
  readonly symbol: SecuritySymbol;
  readonly quantity: Quantity;
  /** What the open quantity cost (signed like it: negative for a short), at its fill prices. */
  readonly cost: Money;
  /** Average entry price of the open quantity (cost ÷ quantity); zero when flat. */
  readonly averageCost: Price;
  /** PnL realised by closing trades, net of commissions. */
  readonly realizedPnl: Money;
}

/** A broker's position report (PROTOCOL.md `stock_info`). */
export interface BrokerPosition {
  readonly symbol: SecuritySymbol;
  readonly symbolName: string;
  readonly quantity: Quantity;
  readonly availableQuantity: Quantity;
  readonly initQuantity: Quantity | undefined;
  readonly costPrice: Price;
  readonly currency: string;
  readonly market: string;
  readonly accountChannel: string;
}

export function flatPosition(symbol: SecuritySymbol): Position {
  const zero = Money.zero(currencyOf(marketOf(symbol)));
  return { symbol, quantity: Quantity.ZERO, cost: zero, averageCost: Price.ZERO, realizedPnl: zero };
}

/** A position of `quantity` bought (or sold short) at `averageCost`, with nothing realised yet, e.g. as a broker reports it. */
export function positionAt(symbol: SecuritySymbol, quantity: Quantity, averageCost: Price, realizedPnl?: Money): Position {
  const flat = flatPosition(symbol);
  return {
    symbol,
    quantity,
    cost: Money.notional(quantity, averageCost, flat.cost.currency),
    averageCost: quantity.isZero() ? Price.ZERO : averageCost,
    realizedPnl: realizedPnl ?? flat.realizedPnl,
  };
}

export interface PositionChange {
  readonly side: Side;
  readonly quantity: Quantity;
  readonly price: Price;
  readonly commission?: Money;
}

/**
 * The position after one fill. Adding to a position adds to its cost; reducing it realises the fill's
 * value less the closed part's share of the cost; crossing zero opens the remainder at the fill price.
 * `value`: the fill's quantity × price in the position's currency, when the caller has it already.
 */
export function applyFill(position: Position, change: PositionChange, value?: Money): Position {
  const selling = change.side === 'Sell';
  const before = position.quantity;
  const after = selling ? before.minus(change.quantity) : before.plus(change.quantity);
  const commission = change.commission;
  const currency = position.cost.currency;
  const realizedBefore = commission === undefined || commission.isZero() ? position.realizedPnl : position.realizedPnl.minus(commission);

  if (before.isZero() || before.isNegative() === selling) {
    const traded = value ?? Money.notional(change.quantity, change.price, currency);
    const cost = selling ? position.cost.minus(traded) : position.cost.plus(traded);
    // Opening from flat costs the fill price: no division (most fills of a backtest).
    const averageCost = before.isZero() ? change.price : Price.average(cost, after);
    return { symbol: position.symbol, quantity: after, cost, averageCost, realizedPnl: realizedBefore };
  }

  const size = before.abs();
  const closing = change.quantity.lt(size) ? change.quantity : size;
  // The whole fill closes (the same raw at the same places): its value is the proceeds.
  const whole = value !== undefined && closing.precision === change.quantity.precision && closing.raw === change.quantity.raw;
  const proceeds = whole ? value : Money.notional(closing, change.price, currency);
  // The closed part's share of the cost (all of it on a full close: no division), rounded EXTRA_PLACES
  // beyond the fill's own value: places counted from the cost would grow with every partial close.
  const released =
    closing === size
      ? position.cost
      : position.cost
          .times(closing)
          .dividedBy(size, proceeds.precision + EXTRA_PLACES)
          .normalized();
  // A long sells at the price and gives up its cost; a short buys back at the price (both signed).
  const realized = selling ? proceeds.minus(released) : released.negated().minus(proceeds);
  const realizedPnl = realizedBefore.plus(realized);
  if (after.isZero()) return { symbol: position.symbol, quantity: after, cost: Money.zero(currency), averageCost: Price.ZERO, realizedPnl };
  if (after.isNegative() !== before.isNegative()) {
    // Crossed zero: the remainder opens at the fill price.
    const cost = Money.notional(after, change.price, currency);
    return { symbol: position.symbol, quantity: after, cost, averageCost: change.price, realizedPnl };
  }
  return { symbol: position.symbol, quantity: after, cost: position.cost.minus(released), averageCost: position.averageCost, realizedPnl };
}

/** PnL of the open quantity at `markPrice`: its marked value less its cost. */
export function unrealizedPnl(position: Position, markPrice: Price): Money {
  return Money.notional(position.quantity, markPrice, position.cost.currency).minus(position.cost);
}
