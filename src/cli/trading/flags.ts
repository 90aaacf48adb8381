// Parsing command-line values before anything is sent: each error names the flag and says what is wrong.
import { InvalidInputError } from '../../domain/errors.js';
import { Fixed } from '../../domain/fixed.js';
import type { FixedPoint } from '../../domain/fixed-point.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import { parseChoice } from '../../domain/order-types.js';
import { parsePeriod, type Period } from '../../domain/period.js';
import { parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';

export function symbolFlag(text: string, flag = '--symbol'): SecuritySymbol {
  try {
    return parseSymbol(String(text));
  } catch (error) {
    if (error instanceof InvalidInputError) throw new InvalidInputError(`${flag}: ${error.message}`, flag);
    throw error;
  }
}

export function choiceFlag<T extends string>(choices: readonly T[], text: string, flag: string): T {
  return parseChoice(choices, String(text), flag);
}

function positiveFlag<T extends FixedPoint>(make: (text: string, field: string) => T, text: string, flag: string): T {
  const value = make(String(text), flag);
  if (!value.isPositive()) throw new InvalidInputError(`${flag}: must be greater than zero (got ${text})`, flag);
  return value;
}

/** A quantity greater than zero. */
export function quantityFlag(text: string, flag: string): Quantity {
  return positiveFlag(Quantity.of, text, flag);
}

/** A price greater than zero, or undefined when the flag is absent. */
export function optionalPriceFlag(text: string | undefined, flag: string): Price | undefined {
  return text === undefined ? undefined : positiveFlag(Price.of, text, flag);
}

/** A number greater than zero without a unit (a percentage), or undefined when the flag is absent. */
export function optionalFixedFlag(text: string | undefined, flag: string): Fixed | undefined {
  return text === undefined ? undefined : positiveFlag(Fixed.of, text, flag);
}

/** A calendar date written YYYY-MM-DD that exists. */
export function dateFlag(text: string, flag: string): string {
  const value = String(text).trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match === null ? undefined : new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (date === undefined || date.toISOString().slice(0, 10) !== value) {
    throw new InvalidInputError(`${flag}: "${text}" is not a date (YYYY-MM-DD)`, flag);
  }
  return value;
}

/** A date (YYYY-MM-DD, read as UTC midnight) or an RFC 3339 time, to epoch ms. */
export function timeFlag(text: string, flag: string): number {
  const value = String(text).trim();
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${dateFlag(value, flag)}T00:00:00Z`) : Date.parse(value);
  if (Number.isNaN(parsed) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new InvalidInputError(`${flag}: "${text}" is not a date (YYYY-MM-DD) or an RFC 3339 time`, flag);
  }
  return parsed;
}

/** A whole number ≥ 1 (pages, page sizes). */
export function countFlag(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new InvalidInputError(`${flag}: must be a whole number of at least 1 (got ${String(value)})`, flag);
  return number;
}

/** A number of seconds ≥ 0 (how long a command waits). */
export function secondsFlag(value: unknown, flag: string): number {
  const seconds = Number(value);
  if (!(seconds >= 0) || !Number.isFinite(seconds))
    throw new InvalidInputError(`${flag}: must be a number of seconds ≥ 0 (got ${String(value)})`, flag);
  return seconds;
}

/** Non-empty text, e.g. an id or a title. */
export function textFlag(value: unknown, flag: string): string {
  const text = value === undefined ? '' : String(value);
  if (text.trim() === '') throw new InvalidInputError(`${flag}: must not be empty`, flag);
  return text;
}

/** A candle period (1m, 5m, day, …; aliases such as 1h and 1d too). */
export function periodFlag(text: string, flag: string): Period {
  try {
    return parsePeriod(String(text));
  } catch (error) {
    if (error instanceof InvalidInputError) throw new InvalidInputError(`${flag}: ${error.message}`, flag);
    throw error;
  }
}
