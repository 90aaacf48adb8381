// Σ quantity × mark and Σ |quantity × mark| over held positions, exactly, without decimal arithmetic per
// position: a mark with at most 8 decimals (as its shortest text, the Decimal markOf makes) is an integer
// over 10^k, so every product and the sums are integers over one common 10^K and add exactly in floats
// while they stay below 2^53. Anything outside that (fractional quantities, long decimals, huge values)
// returns undefined, and the caller sums in Decimal instead; both give the same numbers.
import { Decimal } from '../../domain/decimal.js';
import { times } from '../../domain/decimal-shortcuts.js';

export interface HoldingSums {
  /** Σ quantity × mark (signed). */
  readonly value: Decimal;
  /** Σ |quantity × mark|. */
  readonly gross: Decimal;
}

const MAX_PLACES = 8;
const POWERS = Array.from({ length: MAX_PLACES + 1 }, (_, places) => 10 ** places);
const INVERSE_POWERS = POWERS.map((_, places) => new Decimal(`1e-${places}`));
const SAFE = Number.MAX_SAFE_INTEGER;

/** Decimal places of a mark's shortest text (0–8), or -1 beyond that or when the mark is too large. */
export function markPlaces(mark: number): number {
  for (let places = 0; places <= MAX_PLACES; places += 1) {
    const scale = POWERS[places]!;
    const scaled = Math.round(mark * scale);
    // Distinct k-place decimals are 10^-k apart, more than a float's spacing below 2^52: the round trip
    // proves the shortest text has at most k places.
    if (scaled / scale === mark) return Math.abs(scaled) < 2 ** 52 ? places : -1;
  }
  return -1;
}

/**
 * The sums over `count` positions read through `quantityAt` and `markAt`, or undefined when they cannot
 * be formed exactly in floats. `places` is scratch space of at least `count` entries.
 */
export function exactHoldingSums(count: number, quantityAt: (index: number) => number, markAt: (index: number) => number, places: number[]): HoldingSums | undefined {
  let common = 0;
  for (let index = 0; index < count; index += 1) {
    const quantity = quantityAt(index);
    const found = markPlaces(markAt(index));
    if (found < 0 || !Number.isInteger(quantity) || Math.abs(quantity) > SAFE) return undefined;
    places[index] = found;
    if (found > common) common = found;
  }
  let value = 0;
  let gross = 0;
  for (let index = 0; index < count; index += 1) {
    const scaled = Math.round(markAt(index) * POWERS[places[index]!]!) * POWERS[common - places[index]!]!;
    const product = quantityAt(index) * scaled;
    if (!(Math.abs(scaled) <= SAFE && Math.abs(product) <= SAFE)) return undefined;
    value += product;
    gross += Math.abs(product);
    if (gross > SAFE) return undefined;
  }
  const unit = INVERSE_POWERS[common]!;
  return { value: times(new Decimal(value), unit), gross: times(new Decimal(gross), unit) };
}
