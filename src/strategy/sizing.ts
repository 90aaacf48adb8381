// Sizing helpers of the strategy context: a fraction of equity (targetPercent) or an amount of money
// (buyValue) turned into whole units at the last price. Every quantity goes through roundToUnits, so a
// symbol's lot size plugs in at one place.
import {
  InvalidInputError,
  Money,
  Quantity,
  currencyOf,
  marketOf,
  type FixedPoint,
  type OrderIntent,
  type Position,
  type Price,
  type SecuritySymbol,
} from '../domain/index.js';
import type { DecimalInput, IntentOptions, StrategyContext } from './context.js';
import { toQuantity, toSymbol } from './intents.js';

/** What sizing reads from the running strategy: prices, positions, cash, and the unit orders come in. */
export interface SizingSources {
  readonly defaultSymbol: SecuritySymbol;
  lastPrice(symbol: SecuritySymbol): Price | undefined;
  positions(): readonly Position[];
  cash(currency: string): Money;
  /** The smallest tradable step of a symbol (its lot); 1 until market rules say otherwise. */
  unitOf(symbol: SecuritySymbol): Quantity;
  buy: StrategyContext<unknown>['buy'];
  sell: StrategyContext<unknown>['sell'];
  target: StrategyContext<unknown>['target'];
}

type SizingHelpers = Pick<StrategyContext<unknown>, 'equity' | 'targetPercent' | 'buyValue' | 'sellValue'>;

const ONE = Quantity.of(1);
/** Places kept of value ÷ price before rounding to units (units finer than 10^-8 are not traded). */
const SIZING_PLACES = 8;

/** `quantity` rounded toward zero to a whole number of `unit`s (1 share, or a lot of 100…). */
export function roundToUnits(quantity: Quantity, unit: Quantity = ONE): Quantity {
  if (!unit.isPositive()) throw new InvalidInputError(`a trading unit must be positive, got ${unit.toFixed()}`, 'unit');
  return quantity.dividedBy(unit, 0, 'down').times(unit).normalized();
}

/** (price − average cost) × quantity, in the position's currency: shorts (negative quantity) gain as the price falls. */
export function unrealizedPnl(position: Position, price: Price): Money {
  const currency = currencyOf(marketOf(position.symbol));
  if (position.quantity.isZero()) return Money.zero(currency);
  return Money.notional(position.quantity, price, currency).minus(Money.notional(position.quantity, position.averageCost, currency));
}

export function createSizingHelpers(sources: SizingSources): SizingHelpers {
  const priceOf = (symbol: SecuritySymbol, helper: string): Price => {
    const price = sources.lastPrice(symbol);
    if (price === undefined || !price.isPositive())
      throw new InvalidInputError(`${helper}: no price of ${symbol} yet (sizing needs a candle or a quote of it first)`, 'symbol');
    return price;
  };
  const equity = (currency: string): Money => {
    let total = sources.cash(currency).in(currency);
    for (const position of sources.positions()) {
      if (position.quantity.isZero() || currencyOf(marketOf(position.symbol)) !== currency) continue;
      const price = sources.lastPrice(position.symbol) ?? position.averageCost;
      total = total.plus(Money.notional(position.quantity, price, currency));
    }
    return total;
  };
  const unitsFor = (value: FixedPoint, symbol: SecuritySymbol, helper: string): Quantity => {
    const units = value.dividedBy(priceOf(symbol, helper), SIZING_PLACES, 'down');
    return roundToUnits(Quantity.fromRaw(units.raw, units.precision), sources.unitOf(symbol));
  };
  const byValue = (side: 'buyValue' | 'sellValue', amount: DecimalInput, options: IntentOptions | undefined): OrderIntent => {
    const value = toQuantity(amount, 'amount');
    if (!value.isPositive()) throw new InvalidInputError(`${side} amount must be positive, got ${String(amount)}`, 'amount');
    const symbol = toSymbol(options?.symbol, sources.defaultSymbol);
    const quantity = unitsFor(value, symbol, side);
    if (quantity.isZero()) {
      const unit = sources.unitOf(symbol);
      const cost = unit.times(priceOf(symbol, side)).toFixed();
      throw new InvalidInputError(
        `${side}(${value.toFixed()}): ${symbol} trades in units of ${unit.toFixed()} costing ${cost}; the amount buys none`,
        'amount',
      );
    }
    return side === 'buyValue' ? sources.buy(quantity, { ...options, symbol }) : sources.sell(quantity, { ...options, symbol });
  };
  return {
    equity: (currency) => equity(currency ?? currencyOf(marketOf(sources.defaultSymbol))),
    targetPercent: (fraction, options) => {
      if (typeof fraction !== 'number' || !Number.isFinite(fraction) || Math.abs(fraction) > 10)
        throw new InvalidInputError(`targetPercent takes a fraction of equity (0.1 = 10 %), got ${String(fraction)}`, 'fraction');
      const symbol = toSymbol(options?.symbol, sources.defaultSymbol);
      const value = equity(currencyOf(marketOf(symbol))).times(Quantity.of(fraction, 'fraction'));
      return sources.target(value.isZero() ? Quantity.ZERO : unitsFor(value, symbol, 'targetPercent'), { ...options, symbol });
    },
    buyValue: (amount, options) => byValue('buyValue', amount, options),
    sellValue: (amount, options) => byValue('sellValue', amount, options),
  };
}
