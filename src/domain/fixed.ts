// A plain fixed-point number without a unit: rates, factors, percentages, and limits given without one.
import { FixedPoint } from './fixed-point.js';
import { checkPlaces, checkRaw, type Raw } from './fixed-raw.js';
import { type FixedInput, parsed, readInput } from './fixed-text.js';

export class Fixed extends FixedPoint {
  declare private readonly kind: 'fixed';

  protected make(raw: Raw, precision: number): this {
    return (raw === 0 ? Fixed.zeroAt(precision) : new Fixed(raw, precision)) as this;
  }

  static readonly ZERO = new Fixed(0, 0);
  /** Zeros by places, ZERO first: a result of zero is one shared value (values are immutable). */
  private static readonly zeros: Fixed[] = [Fixed.ZERO];

  private static zeroAt(precision: number): Fixed {
    return (Fixed.zeros[precision] ??= new Fixed(0, precision));
  }
  static readonly ONE = new Fixed(1, 0);

  /** raw × 10^-precision: raw a safe integer or a bigint, precision a whole number of places up to MAX_PRECISION. */
  static fromRaw(raw: Raw, precision: number): Fixed {
    checkPlaces(precision, 'precision');
    const checked = checkRaw(raw);
    return checked === 0 ? Fixed.zeroAt(precision) : new Fixed(checked, precision);
  }

  /** A float is taken as its shortest text (0.001 is 0.001); `field` names the input in errors. */
  static of(value: FixedInput, field = 'value'): Fixed {
    if (value instanceof Fixed) return value;
    readInput(value, field);
    return new Fixed(parsed.raw, parsed.precision);
  }
}
