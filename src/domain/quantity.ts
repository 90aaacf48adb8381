// A number of units (shares, lots, contracts), fixed-point at the precision of the instrument's lot.
import { FixedPoint } from './fixed-point.js';
import { checkPlaces, checkRaw, type Raw } from './fixed-raw.js';
import { type FixedInput, parsed, readInput } from './fixed-text.js';

export class Quantity extends FixedPoint {
  declare private readonly kind: 'quantity';

  protected make(raw: Raw, precision: number): this {
    return (raw === 0 ? Quantity.zeroAt(precision) : new Quantity(raw, precision)) as this;
  }

  static readonly ZERO = new Quantity(0, 0);
  /** Zeros by places, ZERO first: a result of zero is one shared value (values are immutable). */
  private static readonly zeros: Quantity[] = [Quantity.ZERO];

  private static zeroAt(precision: number): Quantity {
    return (Quantity.zeros[precision] ??= new Quantity(0, precision));
  }

  /** raw × 10^-precision: raw a safe integer or a bigint, precision a whole number of places up to MAX_PRECISION. */
  static fromRaw(raw: Raw, precision: number): Quantity {
    checkPlaces(precision, 'precision');
    const checked = checkRaw(raw);
    return checked === 0 ? Quantity.zeroAt(precision) : new Quantity(checked, precision);
  }

  /** A float is taken as its shortest text; `field` names the input in errors. */
  static of(value: FixedInput, field = 'quantity'): Quantity {
    if (value instanceof Quantity) return value;
    readInput(value, field);
    return new Quantity(parsed.raw, parsed.precision);
  }

  /** The whole units at or below this (towards minus infinity). */
  floor(): Quantity {
    return this.roundTo(0, 'floor');
  }
}
