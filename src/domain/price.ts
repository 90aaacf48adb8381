// A price per unit of an instrument, fixed-point at the precision of its tick or of the data it came from.
import { type FixedInput, FixedPoint, type Raw, parsed, readInput } from './fixed-point.js';

export class Price extends FixedPoint {
  declare private readonly kind: 'price';

  protected make(raw: Raw, precision: number): this {
    return new Price(raw, precision) as this;
  }

  static readonly ZERO = new Price(0, 0);

  static fromRaw(raw: Raw, precision: number): Price {
    return new Price(raw, precision);
  }

  /** A float is taken as its shortest text (123.45 is 123.45); `field` names the input in errors. */
  static of(value: FixedInput, field = 'price'): Price {
    if (value instanceof Price) return value;
    readInput(value, field);
    return new Price(parsed.raw, parsed.precision);
  }
}
