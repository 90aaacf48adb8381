// Σ quantity × mark and Σ |quantity × mark| over held positions, exactly, without decimal arithmetic per
// position: a mark with at most 8 decimals (as its shortest text, the Decimal markOf makes) is an integer
// over 10^k, so every product is an integer over 10^k; products are summed per k and the sums joined over
// one common 10^K, all exactly in floats while they stay below 2^53. The sums are kept from one read to
// the next: marks move every bar, and recounting only the positions that moved keeps a read cheap when
// many symbols are held. Anything outside that (fractional quantities, long decimals, huge values) answers
// undefined, and the caller sums in Decimal instead; both give the same numbers.
import { ZERO, type Decimal } from '../../domain/decimal.js';
import { MAX_FLOAT_PLACES, POWERS_OF_TEN, decimalOfScaled, shortestPlaces } from '../../domain/scaled-decimal.js';

export interface HoldingSums {
  /** Σ quantity × mark (signed). */
  readonly value: Decimal;
  /** Σ |quantity × mark|. */
  readonly gross: Decimal;
}

/** A position as the sums see it; the counted* fields are the sums' own bookkeeping. */
export interface Holding {
  readonly quantity: number;
  readonly mark: number;
  /** Decimal places of the mark it was counted with, INEXACT, or UNCOUNTED. */
  countedPlaces: number;
  /** quantity × mark × 10^countedPlaces as it was counted. */
  countedValue: number;
  /** Waiting to be recounted (its quantity or mark moved since). */
  countedStale: boolean;
}

/** Not in the sums (flat, or not yet counted). */
export const UNCOUNTED = -2;
/** Held but not representable exactly in floats: the sums answer undefined while any such is held. */
const INEXACT = -1;
const SAFE = Number.MAX_SAFE_INTEGER;

/** The exact sums over the positions of `held` (a list its owner keeps current), recounting only what moved. */
export class ExactHoldingSums {
  /** Per number of decimal places k: Σ quantity × mark × 10^k, Σ of its absolute values, how many. */
  private readonly values = new Float64Array(MAX_FLOAT_PLACES + 1);
  private readonly grosses = new Float64Array(MAX_FLOAT_PLACES + 1);
  private readonly counts = new Int32Array(MAX_FLOAT_PLACES + 1);
  private inexact = 0;
  /** A per-k sum went past 2^53 and may have lost digits: recount everything on the next read. */
  private overflowed = false;
  private readonly stale: Holding[] = [];
  /** The last answer, kept until a holding moves (several orders in one bar time read the same sums). */
  private answer: HoldingSums | undefined;
  private answered = false;

  constructor(private readonly held: readonly Holding[]) {}

  /** `holding`'s quantity or mark moved (or it became held or flat): it is recounted on the next read. */
  changed(holding: Holding): void {
    this.answered = false;
    if (holding.countedStale) return;
    holding.countedStale = true;
    this.stale.push(holding);
  }

  /** The sums now, or undefined when they cannot be formed exactly in floats. */
  current(): HoldingSums | undefined {
    if (this.answered) return this.answer;
    this.answer = this.sums();
    this.answered = true;
    return this.answer;
  }

  private sums(): HoldingSums | undefined {
    if (!this.overflowed) this.recountStale();
    if (this.overflowed) this.recountAll();
    if (this.overflowed || this.inexact > 0) return undefined;
    let common = 0;
    for (let places = 0; places <= MAX_FLOAT_PLACES; places += 1) if (this.counts[places]! > 0) common = places;
    let value = 0;
    let gross = 0;
    for (let places = 0; places <= common; places += 1) {
      if (this.counts[places] === 0) continue;
      const scale = POWERS_OF_TEN[common - places]!;
      // |value| ≤ gross term by term, so both stay exact while the gross does.
      value += this.values[places]! * scale;
      gross += this.grosses[places]! * scale;
      if (!(gross <= SAFE)) return undefined;
    }
    const signed = decimalOf(value, common);
    // Without short positions the two sums are equal: one conversion serves both.
    return { value: signed, gross: gross === value ? signed : decimalOf(gross, common) };
  }

  private recountStale(): void {
    const stale = this.stale;
    for (let index = 0; index < stale.length; index += 1) {
      const holding = stale[index]!;
      holding.countedStale = false;
      this.uncount(holding);
      this.count(holding);
    }
    stale.length = 0;
  }

  private recountAll(): void {
    this.values.fill(0);
    this.grosses.fill(0);
    this.counts.fill(0);
    this.inexact = 0;
    this.overflowed = false;
    for (const holding of this.stale) {
      holding.countedStale = false;
      holding.countedPlaces = UNCOUNTED;
    }
    this.stale.length = 0;
    for (const holding of this.held) this.count(holding);
  }

  private count(holding: Holding): void {
    const quantity = holding.quantity;
    if (quantity === 0) {
      holding.countedPlaces = UNCOUNTED;
      return;
    }
    const places = shortestPlaces(holding.mark);
    const product = places < 0 ? Number.NaN : quantity * Math.round(holding.mark * POWERS_OF_TEN[places]!);
    if (!Number.isInteger(quantity) || !(Math.abs(quantity) <= SAFE && Math.abs(product) <= SAFE)) {
      holding.countedPlaces = INEXACT;
      this.inexact += 1;
      return;
    }
    holding.countedPlaces = places;
    holding.countedValue = product;
    this.values[places]! += product;
    this.grosses[places]! += Math.abs(product);
    this.counts[places]! += 1;
    if (this.grosses[places]! > SAFE) this.overflowed = true;
  }

  private uncount(holding: Holding): void {
    const places = holding.countedPlaces;
    if (places >= 0) {
      this.values[places]! -= holding.countedValue;
      this.grosses[places]! -= Math.abs(holding.countedValue);
      this.counts[places]! -= 1;
    } else if (places === INEXACT) this.inexact -= 1;
    holding.countedPlaces = UNCOUNTED;
  }
}

/** whole × 10^-places for a whole number of magnitude at most 2^53 − 1 (+0 for zero, as a product by 10^-k gives). */
function decimalOf(whole: number, places: number): Decimal {
  return whole === 0 ? ZERO : decimalOfScaled(whole < 0 ? -1 : 1, Math.abs(whole), places);
}
