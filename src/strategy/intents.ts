// The intent helpers of the strategy context (buy, sell, close, target, cancel): plain values in, domain
// OrderIntents out, with the strategy's first symbol as the default.
import {
  Decimal,
  InvalidInputError,
  decimalFromNumber,
  isDecimal,
  parseDecimal,
  parseSymbol,
  type OrderIntent,
  type SecuritySymbol,
  type Side,
} from '../domain/index.js';
import type { DecimalInput, IntentOptions, StrategyContext } from './context.js';

type IntentHelpers = Pick<StrategyContext<unknown>, 'buy' | 'sell' | 'close' | 'target' | 'cancel'>;

export function toDecimal(input: DecimalInput, field: string): Decimal {
  if (isDecimal(input)) return input;
  if (typeof input === 'number') return decimalFromNumber(input);
  if (typeof input === 'string') return parseDecimal(input, field);
  throw new InvalidInputError(`${field}: ${String(input)} is not a number`, field);
}

export function toSymbol(input: SecuritySymbol | string | undefined, fallback: SecuritySymbol): SecuritySymbol {
  return input === undefined ? fallback : parseSymbol(input);
}

export function createIntentHelpers(defaultSymbol: SecuritySymbol): IntentHelpers {
  const priced = (options: IntentOptions | undefined) => ({
    ...(options?.orderType === undefined ? {} : { orderType: options.orderType }),
    ...(options?.price === undefined ? {} : { price: toDecimal(options.price, 'price') }),
    ...(options?.triggerPrice === undefined ? {} : { triggerPrice: toDecimal(options.triggerPrice, 'triggerPrice') }),
    ...(options?.timeInForce === undefined ? {} : { timeInForce: options.timeInForce }),
    ...(options?.expireDate === undefined ? {} : { expireDate: options.expireDate }),
    ...(options?.outsideRth === undefined ? {} : { outsideRth: options.outsideRth }),
    ...(options?.reason === undefined ? {} : { reason: options.reason }),
  });
  const order = (side: Side, quantity: DecimalInput, options: IntentOptions | undefined): OrderIntent => {
    const amount = toDecimal(quantity, 'quantity');
    if (!amount.isFinite() || amount.lte(0)) throw new InvalidInputError(`${side.toLowerCase()} quantity must be positive, got ${String(quantity)}`, 'quantity');
    return { kind: 'order', symbol: toSymbol(options?.symbol, defaultSymbol), side, quantity: amount, ...priced(options) };
  };
  return {
    buy: (quantity, options) => order('Buy', quantity, options),
    sell: (quantity, options) => order('Sell', quantity, options),
    close: (options) => ({ kind: 'close', symbol: toSymbol(options?.symbol, defaultSymbol), ...priced(options) }),
    target: (quantity, options) => ({
      kind: 'target',
      symbol: toSymbol(options?.symbol, defaultSymbol),
      quantity: toDecimal(quantity, 'quantity'),
      ...priced(options),
    }),
    cancel: (symbol, reason) => ({
      kind: 'cancel',
      ...(symbol === undefined ? {} : { symbol: parseSymbol(symbol) }),
      ...(reason === undefined ? {} : { reason }),
    }),
  };
}
