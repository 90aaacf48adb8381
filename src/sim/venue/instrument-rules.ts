// The market's order rules per instrument: whole board lots (HK odd lots only as ODD orders, CN odd lots only
// on sells), prices on the tick ladder, fractional shares only where the instrument allows them. One place,
// so backtests, paper runs and `trader sim` refuse the same orders.
import type { Instrument } from '../../domain/instrument.js';
import type { Price } from '../../domain/price.js';
import type { Quantity } from '../../domain/quantity.js';
import { marketOf } from '../../domain/symbol.js';
import type { OrderType, Side } from '../../domain/order-types.js';
import { describeTickRule, isOnTick, tickNeighbours } from '../../domain/tick-rules.js';

export interface RuleSubject {
  readonly side: Side;
  readonly orderType: OrderType;
  readonly quantity: Quantity;
  readonly price?: Price | undefined;
  readonly triggerPrice?: Price | undefined;
}

/** The reason the instrument's market refuses `order`, or undefined. */
export function instrumentProblem(order: RuleSubject, instrument: Instrument): string | undefined {
  return (
    quantityProblem(order, instrument) ??
    priceProblem('price', order.price, instrument) ??
    priceProblem('trigger price', order.triggerPrice, instrument)
  );
}

function quantityProblem(order: RuleSubject, instrument: Instrument): string | undefined {
  const { quantity, orderType } = order;
  const symbol = instrument.symbol;
  if (!quantity.isInteger()) {
    if (!instrument.fractionalShares) return `fractional shares: ${symbol} trades whole shares only, got quantity ${quantity.toString()}`;
    return undefined;
  }
  const lot = instrument.lotSize;
  const market = marketOf(symbol);
  if (orderType === 'ODD') {
    if (market !== 'HK') return `odd lot: order type ODD is for Hong Kong odd lots only, not ${symbol}`;
    if (!quantity.lt(lot)) return `odd lot: an ODD order takes fewer shares than one board lot of ${lot}, got ${quantity.toString()}`;
    return undefined;
  }
  // A whole quantity below 2^53 is exact as a float, so the remainder is too.
  if (lot <= 1 || quantity.toNumber() % lot === 0) return undefined;
  // China Connect sells may include the odd shares a holding has (from bonus issues); buys are whole lots.
  if (market === 'CN' && order.side === 'Sell') return undefined;
  const hint = market === 'HK' ? ' (odd lots trade only as order type ODD)' : '';
  return `lot size: quantity ${quantity.toString()} of ${symbol} is not a whole number of board lots of ${lot}${hint}`;
}

function priceProblem(field: string, price: Price | undefined, instrument: Instrument): string | undefined {
  if (price === undefined || !price.isPositive() || isOnTick(instrument.tick, price)) return undefined;
  const { below, above } = tickNeighbours(instrument.tick, price);
  return `tick size: ${field} ${price.toString()} of ${instrument.symbol} is not on the price ladder (${describeTickRule(instrument.tick)}); nearest ${below.toString()} or ${above.toString()}`;
}
