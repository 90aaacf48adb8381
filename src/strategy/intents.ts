// The intent helpers of the strategy context (buy, sell, close, target, cancel): plain values in, domain
// OrderIntents out, with the strategy's first symbol as the default.
import {
  Fixed,
  InvalidInputError,
  Price,
  Quantity,
  parseSymbol,
  type ExitSpec,
  type OrderIntent,
  type SecuritySymbol,
  type Side,
} from '../domain/index.js';
import type { DecimalInput, IntentOptions, StrategyContext } from './context.js';

type IntentHelpers = Pick<StrategyContext<unknown>, 'buy' | 'sell' | 'close' | 'target' | 'cancel'>;

/** A quantity from what a strategy passed (a number, decimal text or a value); `field` names it in errors. */
export function toQuantity(input: DecimalInput, field: string): Quantity {
  return Quantity.of(input, field);
}

/** A price from what a strategy passed; `field` names it in errors. */
export function toPrice(input: DecimalInput, field: string): Price {
  return Price.of(input, field);
}

/** Symbols read so far, by the text given: a strategy names the same few symbols on every intent. */
const readSymbols = new Map<string, SecuritySymbol>();
/** Past this many different texts (a strategy making up symbols), the memory starts over. */
const MOST_READ_SYMBOLS = 10_000;

export function toSymbol(input: SecuritySymbol | string | undefined, fallback: SecuritySymbol): SecuritySymbol {
  if (input === undefined) return fallback;
  let symbol = readSymbols.get(input);
  if (symbol === undefined) {
    // A bad symbol throws here, every time: only symbols that read are remembered.
    symbol = parseSymbol(input);
    if (readSymbols.size >= MOST_READ_SYMBOLS) readSymbols.clear();
    readSymbols.set(input, symbol);
  }
  return symbol;
}

// Plain literals (optional fields left undefined): intents are built on the hot path of a backtest.
export function createIntentHelpers(defaultSymbol: SecuritySymbol): IntentHelpers {
  const priceOrUndefined = (value: DecimalInput | undefined, field: string): Price | undefined =>
    value === undefined ? undefined : toPrice(value, field);
  const order = (side: Side, quantity: DecimalInput, options: IntentOptions | undefined): OrderIntent => {
    const amount = toQuantity(quantity, 'quantity');
    if (!amount.isPositive())
      throw new InvalidInputError(`${side.toLowerCase()} quantity must be positive, got ${String(quantity)}`, 'quantity');
    return {
      kind: 'order',
      symbol: toSymbol(options?.symbol, defaultSymbol),
      side,
      quantity: amount,
      orderType: options?.orderType,
      price: priceOrUndefined(options?.price, 'price'),
      triggerPrice: priceOrUndefined(options?.triggerPrice, 'triggerPrice'),
      trailingAmount: priceOrUndefined(options?.trailingAmount, 'trailingAmount'),
      trailingPercent: options?.trailingPercent === undefined ? undefined : Fixed.of(options.trailingPercent, 'trailingPercent'),
      limitOffset: priceOrUndefined(options?.limitOffset, 'limitOffset'),
      timeInForce: options?.timeInForce,
      expireDate: options?.expireDate,
      outsideRth: options?.outsideRth,
      reason: options?.reason,
      tag: options?.tag,
      exits: checkedExits(options?.exits),
    };
  };
  return {
    buy: (quantity, options) => order('Buy', quantity, options),
    sell: (quantity, options) => order('Sell', quantity, options),
    close: (options) => ({
      kind: 'close',
      symbol: toSymbol(options?.symbol, defaultSymbol),
      orderType: options?.orderType,
      price: priceOrUndefined(options?.price, 'price'),
      trailingAmount: priceOrUndefined(options?.trailingAmount, 'trailingAmount'),
      trailingPercent: options?.trailingPercent === undefined ? undefined : Fixed.of(options.trailingPercent, 'trailingPercent'),
      limitOffset: priceOrUndefined(options?.limitOffset, 'limitOffset'),
      timeInForce: options?.timeInForce,
      expireDate: options?.expireDate,
      outsideRth: options?.outsideRth,
      reason: options?.reason,
      tag: options?.tag,
    }),
    target: (quantity, options) => ({
      kind: 'target',
      symbol: toSymbol(options?.symbol, defaultSymbol),
      quantity: toQuantity(quantity, 'quantity'),
      orderType: options?.orderType,
      price: priceOrUndefined(options?.price, 'price'),
      triggerPrice: priceOrUndefined(options?.triggerPrice, 'triggerPrice'),
      trailingAmount: priceOrUndefined(options?.trailingAmount, 'trailingAmount'),
      trailingPercent: options?.trailingPercent === undefined ? undefined : Fixed.of(options.trailingPercent, 'trailingPercent'),
      limitOffset: priceOrUndefined(options?.limitOffset, 'limitOffset'),
      timeInForce: options?.timeInForce,
      expireDate: options?.expireDate,
      outsideRth: options?.outsideRth,
      reason: options?.reason,
      tag: options?.tag,
      exits: checkedExits(options?.exits),
    }),
    cancel: (symbol, reason) => ({ kind: 'cancel', symbol: symbol === undefined ? undefined : toSymbol(symbol, defaultSymbol), reason }),
  };
}

const EXIT_NAMES = ['stopLoss', 'takeProfit', 'trailingStop'] as const;

/** Exits as given, or a clear error naming the bad one (a distance must be one positive percent or amount). */
function checkedExits(exits: ExitSpec | undefined): ExitSpec | undefined {
  if (exits === undefined) return undefined;
  for (const name of EXIT_NAMES) {
    const distance = exits[name] as Record<string, unknown> | undefined;
    if (distance === undefined) continue;
    const keys = Object.keys(distance);
    const value = distance['percent'] ?? distance['amount'];
    if (keys.length !== 1 || (keys[0] !== 'percent' && keys[0] !== 'amount') || typeof value !== 'number' || !(value > 0))
      throw new InvalidInputError(
        `exits.${name} must be { percent: number > 0 } or { amount: number > 0 }, got ${JSON.stringify(distance)}`,
        `exits.${name}`,
      );
    if (keys[0] === 'percent' && value >= 1 && name !== 'takeProfit')
      throw new InvalidInputError(`exits.${name}.percent is a fraction (0.05 = 5 %), got ${value}`, `exits.${name}`);
  }
  return exits;
}
