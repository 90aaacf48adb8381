// Sizing helpers of the strategy context: a fraction of equity (targetPercent) or an amount of money
// (buyValue) turned into whole units at the last price. Every quantity goes through roundToUnits, so a
// symbol's lot size plugs in at one place.
import {
  Decimal,
  InvalidInputError,
  ZERO,
  currencyOf,
  marketOf,
  type OrderIntent,
  type Position,
  type SecuritySymbol,
} from '../domain/index.js';
import type { DecimalInput, IntentOptions, StrategyContext } from './context.js';
import { toDecimal, toSymbol } from './intents.js';

/** What sizing reads from the running strategy: prices, positions, cash, and the unit orders come in. */
export interface SizingSources {
  readonly defaultSymbol: SecuritySymbol;
  lastPrice(symbol: SecuritySymbol): Decimal | undefined;
  positions(): readonly Position[];
  cash(currency: string): Decimal;
  /** The smallest tradable step of a symbol (its lot); 1 until market rules say otherwise. */
  unitOf(symbol: SecuritySymbol): Decimal;
  buy: StrategyContext<unknown>['buy'];
  sell: StrategyContext<unknown>['sell'];
  target: StrategyContext<unknown>['target'];
}

type SizingHelpers = Pick<StrategyContext<unknown>, 'equity' | 'targetPercent' | 'buyValue' | 'sellValue'>;

const ONE = new Decimal(1);

/** `quantity` rounded toward zero to a whole number of `unit`s (1 share, or a lot of 100…). */
export function roundToUnits(quantity: Decimal, unit: Decimal = ONE): Decimal {
  if (!unit.isFinite() || unit.lte(0)) throw new InvalidInputError(`a trading unit must be positive, got ${unit.toFixed()}`, 'unit');
  return quantity.dividedBy(unit).truncated().times(unit);
}

export function createSizingHelpers(sources: SizingSources): SizingHelpers {
  const priceOf = (symbol: SecuritySymbol, helper: string): Decimal => {
    const price = sources.lastPrice(symbol);
    if (price === undefined || price.lte(0))
      throw new InvalidInputError(`${helper}: no price of ${symbol} yet (sizing needs a candle or a quote of it first)`, 'symbol');
    return price;
  };
  const equity = (currency: string): Decimal => {
    let total = sources.cash(currency);
    for (const position of sources.positions()) {
      if (position.quantity.isZero() || currencyOf(marketOf(position.symbol)) !== currency) continue;
      const price = sources.lastPrice(position.symbol) ?? position.averageCost;
      total = total.plus(position.quantity.times(price));
    }
    return total;
  };
  const unitsFor = (value: Decimal, symbol: SecuritySymbol, helper: string): Decimal =>
    roundToUnits(value.dividedBy(priceOf(symbol, helper)), sources.unitOf(symbol));
  const byValue = (side: 'buyValue' | 'sellValue', amount: DecimalInput, options: IntentOptions | undefined): OrderIntent => {
    const value = toDecimal(amount, 'amount');
    if (!value.isFinite() || value.lte(0)) throw new InvalidInputError(`${side} amount must be positive, got ${String(amount)}`, 'amount');
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
      const value = equity(currencyOf(marketOf(symbol))).times(fraction);
      return sources.target(value.isZero() ? ZERO : unitsFor(value, symbol, 'targetPercent'), { ...options, symbol });
    },
    buyValue: (amount, options) => byValue('buyValue', amount, options),
    sellValue: (amount, options) => byValue('sellValue', amount, options),
  };
}

/** (price − average cost) × quantity: negative quantities (shorts) gain as the price falls. */
export function unrealizedPnl(position: Position, price: Decimal): Decimal {
  return position.quantity.isZero() ? ZERO : price.minus(position.averageCost).times(position.quantity);
}
