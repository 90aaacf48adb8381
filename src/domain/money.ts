// An amount of money in one currency, fixed-point. Amounts of different currencies never add up: there is
// no conversion, and mixing them is a FixedPointError.
import { type FixedInput, FixedPoint, FixedPointError, MAX_PRECISION, multiplyInto, type Raw, parsed, readInput } from './fixed-point.js';
import type { Price } from './price.js';
import type { Quantity } from './quantity.js';

let lastZero: Money | undefined;

export class Money extends FixedPoint {
  declare private readonly kind: 'money';
  /** ISO 4217 code, e.g. "USD". Declared and assigned, as FixedPoint's fields are. */
  declare readonly currency: string;

  private constructor(raw: Raw, precision: number, currency: string) {
    super(raw, precision);
    this.currency = currency;
  }

  protected make(raw: Raw, precision: number): this {
    return new Money(raw, precision, this.currency) as this;
  }

  static fromRaw(raw: Raw, precision: number, currency: string): Money {
    return new Money(raw, precision, currency);
  }

  /** Zero in `currency` (the last one made is given again: asked for on every order, nearly always in one currency). */
  static zero(currency: string): Money {
    if (lastZero !== undefined && lastZero.currency === currency) return lastZero;
    lastZero = new Money(0, 0, currency);
    return lastZero;
  }

  /** A float is taken as its shortest text; `field` names the input in errors. */
  static of(value: FixedInput, currency: string, field = 'amount'): Money {
    if (value instanceof Money && value.currency === currency) return value;
    readInput(value, field);
    return new Money(parsed.raw, parsed.precision, currency);
  }

  /** quantity × price, exactly. */
  static notional(quantity: Quantity, price: Price, currency: string): Money {
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

  /** The same amount in another currency's books (for amounts read without one, e.g. limits). */
  in(currency: string): Money {
    return currency === this.currency ? this : new Money(this.raw, this.precision, currency);
  }
}

function mixed(a: Money, b: Money, operator: string): never {
  throw new FixedPointError(
    'CURRENCY_MISMATCH',
    `${a.toString()} ${a.currency} ${operator} ${b.toString()} ${b.currency}: different currencies`,
  );
}
