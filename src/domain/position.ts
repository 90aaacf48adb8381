// Positions and their arithmetic: signed quantity (negative = short), average cost, realised PnL.
import { ZERO, type Decimal } from './decimal.js';
import { abs, compare, minus, plus, times } from './decimal-shortcuts.js';
import type { Side } from './order-types.js';
import type { SecuritySymbol } from './symbol.js';

export interface Position {
  readonly symbol: SecuritySymbol;
  readonly quantity: Decimal;
  /** Average entry price of the open quantity; zero when flat. */
  readonly averageCost: Decimal;
  /** PnL realised by closing trades, net of commissions. */
  readonly realizedPnl: Decimal;
}

/** A broker's position report (PROTOCOL.md `stock_info`). */
export interface BrokerPosition {
  readonly symbol: SecuritySymbol;
  readonly symbolName: string;
  readonly quantity: Decimal;
  readonly availableQuantity: Decimal;
  readonly initQuantity: Decimal | undefined;
  readonly costPrice: Decimal;
  readonly currency: string;
  readonly market: string;
  readonly accountChannel: string;
}

export function flatPosition(symbol: SecuritySymbol): Position {
  return { symbol, quantity: ZERO, averageCost: ZERO, realizedPnl: ZERO };
}

export interface PositionChange {
  readonly side: Side;
  readonly quantity: Decimal;
  readonly price: Decimal;
  readonly commission?: Decimal;
}

/**
 * The position after one fill. Adding to a position moves the average cost; reducing it realises
 * (price − average cost) × closed quantity; crossing zero opens the remainder at the fill price.
 */
export function applyFill(position: Position, change: PositionChange): Position {
  const selling = change.side === 'Sell';
  const commission = change.commission ?? ZERO;
  const before = position.quantity;
  // before ± quantity: decimal.js adds a negated quantity by subtracting, so this is the same sum.
  const after = selling ? minus(before, change.quantity) : plus(before, change.quantity);

  if (before.isZero() || before.isNegative() === selling) {
    // Opening from flat costs the fill price: no 40-digit division (most fills of a backtest).
    const averageCost = before.isZero()
      ? change.price
      : before.times(position.averageCost).plus(signedOf(change, selling).times(change.price)).dividedBy(after);
    return {
      symbol: position.symbol,
      quantity: after,
      averageCost,
      realizedPnl: commission.isZero() ? position.realizedPnl : minus(position.realizedPnl, commission),
    };
  }

  // Decimal.min(|before|, quantity) (the quantity is positive, so |signed| is the quantity itself).
  const size = abs(before);
  const order = compare(size, change.quantity);
  const closed = order === 1 || (order === 0 && size.s === 1) ? change.quantity : size;
  const gain = times(minus(change.price, position.averageCost), closed);
  // × −1 for a short: the same digits with the sign turned, as negated() gives.
  const realized = before.isNegative() ? gain.negated() : gain;
  const realizedPnl = commission.isZero() ? plus(position.realizedPnl, realized) : minus(plus(position.realizedPnl, realized), commission);
  if (after.isZero()) return { symbol: position.symbol, quantity: after, averageCost: ZERO, realizedPnl };
  const crossed = after.isNegative() !== before.isNegative();
  return { symbol: position.symbol, quantity: after, averageCost: crossed ? change.price : position.averageCost, realizedPnl };
}

function signedOf(change: PositionChange, selling: boolean): Decimal {
  return selling ? change.quantity.negated() : change.quantity;
}

export function unrealizedPnl(position: Position, markPrice: Decimal): Decimal {
  return markPrice.minus(position.averageCost).times(position.quantity);
}
