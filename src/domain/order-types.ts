// The order vocabulary of the service (PROTOCOL.md §4): sides, order types, time in force, trading hours.
import { InvalidInputError } from './errors.js';

export const SIDES = ['Buy', 'Sell'] as const;
export type Side = (typeof SIDES)[number];

export const ORDER_TYPES = ['LO', 'ELO', 'MO', 'AO', 'ALO', 'ODD', 'LIT', 'MIT', 'TSLPAMT', 'TSLPPCT', 'SLO'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** Order types that need a submitted price. */
export const PRICED_ORDER_TYPES: readonly OrderType[] = ['LO', 'ELO', 'ALO', 'ODD', 'LIT', 'SLO'];
/** Order types that wait for a trigger price before they work. */
export const TRIGGERED_ORDER_TYPES: readonly OrderType[] = ['LIT', 'MIT'];

export const TIME_IN_FORCE = ['Day', 'GTC', 'GTD'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];

export const OUTSIDE_RTH = ['RTH_ONLY', 'ANY_TIME', 'OVERNIGHT'] as const;
export type OutsideRth = (typeof OUTSIDE_RTH)[number];

export const TRIGGER_STATUSES = ['NOT_USED', 'DEACTIVE', 'ACTIVE', 'RELEASED'] as const;
export type TriggerStatus = (typeof TRIGGER_STATUSES)[number];

/** Case-insensitive lookup of one of the vocabularies above, with an error naming the field and the choices. */
export function parseChoice<T extends string>(choices: readonly T[], text: string, field: string): T {
  const found = choices.find((choice) => choice.toLowerCase() === text.trim().toLowerCase());
  if (found === undefined) {
    throw new InvalidInputError(`${field}: "${text}" is not one of ${choices.join(', ')}`, field);
  }
  return found;
}

export function oppositeSide(side: Side): Side {
  return side === 'Buy' ? 'Sell' : 'Buy';
}
