// An amount of money in one currency, fixed-point. Amounts of different currencies never add up or compare:
// there is no conversion, and mixing them is a FixedPointError.
import { InvalidInputError } from './errors.js';
import type { Fixed } from './fixed.js';
import { compareValues, FixedPoint, multiplyInto } from './fixed-point.js';
import { checkPlaces, checkRaw, FixedPointError, MAX_PRECISION, type Raw } from './fixed-raw.js';
import { type FixedInput, parsed, readInput } from './fixed-text.js';
import type { Price } from './price.js';
import type { Quantity } from './quantity.js';

/** ISO 4217's code for "no currency": amounts where none is known (no balance reported, no trades). */
export const NO_CURRENCY = 'XXX';

/** Zero amounts by currency, each currency's by places: a result of zero is one shared value (values are immutable). */
const zeros = new Map<string, Money[]>();
/** The currency zeroAt asked for last, and its zeros (a run nearly always asks in one currency). */
let zerosOf: string | null = null;
let lastZeros: Money[] = [];

export class Money extends FixedPoint {
  declare private readonly kind: 'money';
  /** ISO 4217 code, e.g. "USD". Declared and assigned, as FixedPoint's fields are. */
  declare readonly currency: string;

  private constructor(raw: Raw, precision: number, currency: string) {
    super(raw, precision);
    this.currency = currency;
  }

  protected make(raw: Raw, precision: number): this {
    return (raw === 0 ? Money.zeroAt(this.currency, precision) : new Money(raw, precision, this.currency)) as this;
  }

  /** raw × 10^-precision in `currency`: raw a safe integer or a bigint, precision up to MAX_PRECISION places. */
  static fromRaw(raw: Raw, precision: number, currency: string): Money {
    checkPlaces(precision, 'precision');
    const checked = checkRaw(raw);
    return checked === 0 ? Money.zeroAt(currency, precision) : new Money(checked, precision, checkCurrency(currency));
  }

  /** Zero in `currency` (one shared value: asked for on every order). */
  static zero(currency: string): Money {
    return Money.zeroAt(currency, 0);
  }

  /** The shared zero of `currency` at `precision` places (see zeros). */
  private static zeroAt(currency: string, precision: number): Money {
    if (currency !== zerosOf) {
      let list = zeros.get(currency);
      if (list === undefined) zeros.set(checkCurrency(currency), (list = []));
      zerosOf = currency;
      lastZeros = list;
    }
    return (lastZeros[precision] ??= new Money(0, precision, currency));
  }

  /** A float is taken as its shortest text; `field` names the input in errors. */
  static of(value: FixedInput, currency: string, field = 'amount'): Money {
    if (value instanceof Money && value.currency === currency) return value;
    checkCurrency(currency);
    readInput(value, field);
    return new Money(parsed.raw, parsed.precision, currency);
  }

  /** quantity × price, exactly. */
  static notional(quantity: Quantity, price: Price, currency: string): Money {
    checkCurrency(currency);
    const a = quantity.raw;
    const b = price.raw;
    if (typeof a === 'number' && typeof b === 'number') {
      const product = a * b;
      if (
        product <= Number.MAX_SAFE_INTEGER &&
        product >= -Number.MAX_SAFE_INTEGER &&
        quantity.precision + price.precision <= MAX_PRECISION
      )
        return new Money(product + 0, quantity.precision + price.precision, currency);
    }
    multiplyInto(quantity, price);
    return new Money(parsed.raw, parsed.precision, currency);
  }

  override plus(other: this): this {
    if (other.currency !== this.currency) mixed(this, other, '+');
    return super.plus(other);
  }

  override minus(other: this): this {
    if (other.currency !== this.currency) mixed(this, other, '−');
    return super.minus(other);
  }

  /** As FixedPoint's, and refused for an amount in another currency (a Fixed or a float has none: a limit). */
  override compare(other: this | Fixed | number): number {
    // One string comparison in the common case; only a mismatch asks whether `other` has a currency at all.
    if (typeof other !== 'number' && (other as Money).currency !== this.currency && other instanceof Money)
      mixed(this, other, 'compared with');
    return compareValues(this, other);
  }

  /** The same amount in another currency's books (for amounts read without one, e.g. limits). */
  in(currency: string): Money {
    return currency === this.currency ? this : new Money(this.raw, this.precision, checkCurrency(currency));
  }
}

/** The code checkCurrency passed last: a run nearly always asks for one currency, then costs one comparison. */
let lastChecked = 'USD';

/** `currency` when it is an ISO 4217 code (three upper-case letters); an InvalidInputError otherwise. */
function checkCurrency(currency: string): string {
  return currency === lastChecked ? currency : newCurrency(currency);
}

function newCurrency(currency: string): string {
  if (typeof currency !== 'string' || currency.length !== 3 || !upper(currency, 0) || !upper(currency, 1) || !upper(currency, 2))
    throw new InvalidInputError(
      `currency: ${JSON.stringify(currency)} is not an ISO 4217 code (three upper-case letters, e.g. USD)`,
      'currency',
    );
  lastChecked = currency;
  return currency;
}

function upper(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 65 && code <= 90;
}

function mixed(a: Money, b: Money, operator: string): never {
  throw new FixedPointError(
    'CURRENCY_MISMATCH',
    `${a.toString()} ${a.currency} ${operator} ${b.toString()} ${b.currency}: different currencies`,
  );
}
