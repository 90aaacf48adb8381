// A price per unit of an instrument, fixed-point at the precision of its tick or of the data it came from.
import { FixedPoint } from './fixed-point.js';
import { checkPlaces, checkRaw, EXTRA_PLACES, MAX_PRECISION, type Raw } from './fixed-raw.js';
import { type FixedInput, parsed, readInput } from './fixed-text.js';

export class Price extends FixedPoint {
  declare private readonly kind: 'price';

  protected make(raw: Raw, precision: number): this {
    return (raw === 0 ? Price.zeroAt(precision) : new Price(raw, precision)) as this;
  }

  static readonly ZERO = new Price(0, 0);
  /** Zeros by places, ZERO first: a result of zero is one shared value (values are immutable). */
  private static readonly zeros: Price[] = [Price.ZERO];

  private static zeroAt(precision: number): Price {
    return (Price.zeros[precision] ??= new Price(0, precision));
  }

  /** raw × 10^-precision: raw a safe integer or a bigint, precision a whole number of places up to MAX_PRECISION. */
  static fromRaw(raw: Raw, precision: number): Price {
    checkPlaces(precision, 'precision');
    const checked = checkRaw(raw);
    return checked === 0 ? Price.zeroAt(precision) : new Price(checked, precision);
  }

  /**
   * total ÷ quantity as a price (an average): exact when the division ends within EXTRA_PLACES more places
   * than the prices in `total` have (at most MAX_PRECISION), rounded half-even there otherwise; trailing
   * zeros dropped.
   */
  static average(total: FixedPoint, quantity: FixedPoint): Price {
    const places = Math.min(MAX_PRECISION, Math.max(0, total.precision - quantity.precision) + EXTRA_PLACES);
    return new Price(total.raw, total.precision).dividedBy(quantity, places).normalized();
  }

  /** A float is taken as its shortest text (123.45 is 123.45); `field` names the input in errors. */
  static of(value: FixedInput, field = 'price'): Price {
    if (value instanceof Price) return value;
    readInput(value, field);
    return new Price(parsed.raw, parsed.precision);
  }
}
