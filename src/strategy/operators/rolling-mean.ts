// The mean of the last `length` closes, exact: prices are decimals (a close read from "123.45" is 123.45),
// so the window is summed as whole numbers of its finest decimal place and every mean is the correctly
// rounded float of the exact mean. Two equal windows give the same mean, and `compare` tells means apart
// exactly, so a crossover never sees a tie that float summing turned into a cross. Values that are no
// short decimal (more than 8 places, or too large) switch the window to float sums, oldest first.
// Allocates nothing per value: the hot path of a backtest runs through here on every bar.
import { POWERS_OF_TEN } from '../../domain/fixed-raw.js';
import { floatPlaces } from '../../domain/fixed-text.js';

const SAFE = Number.MAX_SAFE_INTEGER;
/** Below 2^51 a float times 10^k is within 1/4 of the whole number it stands for (see floatPlaces). */
const FLOAT_WHOLE_LIMIT = 2 ** 51;

export class RollingMean {
  /** The values as whole numbers of 10^-places (exact mode), and as given. */
  private readonly units: Float64Array;
  private readonly values: Float64Array;
  private next = 0;
  private count = 0;
  /** Σ units, exact while `exact`. */
  private sum = 0;
  private places = 0;
  private exact = true;

  constructor(readonly length: number) {
    this.units = new Float64Array(length);
    this.values = new Float64Array(length);
  }

  /**
   * Adds `values[at]` (a slot, as subscribeCloses gives); true once the window is full (then `mean` is the
   * mean of the last `length` values).
   */
  add(values: Float64Array, at: number): boolean {
    const value = values[at]!;
    const slot = this.next;
    this.values[slot] = value;
    if (this.exact) this.addUnits(value, slot);
    this.next = slot + 1 === this.length ? 0 : slot + 1;
    if (this.count < this.length) {
      this.count += 1;
      if (this.count < this.length) return false;
    }
    return true;
  }

  /** The mean of the last `length` values; meaningful once `add` has returned true. */
  get mean(): number {
    return this.exact ? this.exactMean() : this.floatMean();
  }

  /** −1, 0 or 1: this mean against `other`'s, exactly when both windows are exact (both must be full). */
  compare(other: RollingMean): number {
    if (this.exact && other.exact) {
      const places = Math.max(this.places, other.places);
      // this.sum / this.length against other.sum / other.length, cross-multiplied in whole numbers.
      const left = this.sum * POWERS_OF_TEN[places - this.places]! * other.length;
      const right = other.sum * POWERS_OF_TEN[places - other.places]! * this.length;
      if (Math.abs(left) <= SAFE && Math.abs(right) <= SAFE) return left < right ? -1 : left > right ? 1 : 0;
      const bigLeft = BigInt(this.sum) * 10n ** BigInt(places - this.places) * BigInt(other.length);
      const bigRight = BigInt(other.sum) * 10n ** BigInt(places - other.places) * BigInt(this.length);
      return bigLeft < bigRight ? -1 : bigLeft > bigRight ? 1 : 0;
    }
    const mine = this.mean;
    const theirs = other.mean;
    return mine < theirs ? -1 : mine > theirs ? 1 : 0;
  }

  private addUnits(value: number, slot: number): void {
    // Most values have no more places than the window already has: one check at those places.
    const scale = POWERS_OF_TEN[this.places]!;
    const whole = Math.round(value * scale);
    if (whole / scale === value && Math.abs(whole) < FLOAT_WHOLE_LIMIT) {
      const sum = this.sum - this.units[slot]! + whole;
      if (Math.abs(sum) <= SAFE) {
        this.units[slot] = whole;
        this.sum = sum;
        return;
      }
    }
    this.addUnitsSlowly(value, slot);
  }

  private addUnitsSlowly(value: number, slot: number): void {
    const places = floatPlaces(value);
    if (places < 0) {
      this.exact = false;
      return;
    }
    if (places > this.places) this.refine(places);
    const units = Math.round(value * POWERS_OF_TEN[places]!) * POWERS_OF_TEN[this.places - places]!;
    const sum = this.sum - this.units[slot]! + units;
    if (!(Math.abs(units) <= SAFE && Math.abs(sum) <= SAFE)) {
      this.exact = false;
      return;
    }
    this.units[slot] = units;
    this.sum = sum;
  }

  /** Moves the window to a finer decimal place (a value with more places arrived). */
  private refine(places: number): void {
    const factor = POWERS_OF_TEN[places - this.places]!;
    const units = this.units;
    for (let index = 0; index < units.length; index += 1) units[index]! *= factor;
    this.sum *= factor;
    this.places = places;
    if (Math.abs(this.sum) > SAFE || units.some((unit) => Math.abs(unit) > SAFE)) this.exact = false;
  }

  private exactMean(): number {
    const divisor = this.length * POWERS_OF_TEN[this.places]!;
    // One division of exact operands: the correctly rounded mean.
    return divisor <= SAFE ? this.sum / divisor : this.sum / POWERS_OF_TEN[this.places]! / this.length;
  }

  /** The float sum oldest first from zero, as trading-signals' SMA sums. */
  private floatMean(): number {
    const values = this.values;
    const length = this.length;
    let sum = 0;
    for (let index = this.next; index < length; index += 1) sum += values[index]!;
    for (let index = 0; index < this.next; index += 1) sum += values[index]!;
    return sum / length;
  }
}
