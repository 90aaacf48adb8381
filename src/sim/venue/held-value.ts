// Σ quantity × mark and Σ |quantity × mark| over a ledger's held positions, exactly, for the account figures
// every order asks for. The reference sums a Money per position (heldValuesByMoney); heldValuesFast sums the
// same products as safe integers and gives up (undefined) where one would leave the safe range. One shared
// test suite runs both (test/sim/venue/held-value.test.ts).
import { POWERS_OF_TEN } from '../../domain/fixed-raw.js';
import { floatPlacesNear } from '../../domain/fixed-text.js';
import { Money } from '../../domain/money.js';
import { markOf, type CurrencyLedger, type SymbolSlot } from './book.js';

export interface HeldValues {
  /** Σ quantity × mark (shorts count negative). */
  readonly value: Money;
  /** Σ |quantity × mark|. */
  readonly gross: Money;
  /** Σ |quantity × mark| over short positions (part of gross). */
  readonly shortGross: Money;
}

const SAFE = Number.MAX_SAFE_INTEGER;

export function heldValues(ledger: CurrencyLedger): HeldValues {
  return heldValuesFast(ledger) ?? heldValuesByMoney(ledger);
}

export function heldValuesByMoney(ledger: CurrencyLedger): HeldValues {
  let value = Money.zero(ledger.currency);
  let gross = value;
  let shortGross = value;
  for (const slot of ledger.held) {
    const held = Money.notional(slot.position!.position.quantity, markOf(slot), ledger.currency);
    value = value.plus(held);
    gross = gross.plus(held.abs());
    if (held.isNegative()) shortGross = shortGross.minus(held);
  }
  return { value, gross, shortGross };
}

/** The same sums in safe integers, or undefined when a quantity, mark, product or sum does not fit. */
export function heldValuesFast(ledger: CurrencyLedger): HeldValues | undefined {
  const held = ledger.held;
  let places = 0;
  let value = 0;
  let gross = 0;
  let shortGross = 0;
  for (let index = 0; index < held.length; index += 1) {
    const slot = held[index]!;
    const units = slot.units;
    const markPlaces = markPlacesOf(slot);
    if (typeof units !== 'number' || markPlaces < 0) return undefined;
    let product = units * Math.round(slot.mark * POWERS_OF_TEN[markPlaces]!);
    const productPlaces = slot.unitPlaces + markPlaces;
    if (productPlaces > places) {
      const scale = POWERS_OF_TEN[productPlaces - places];
      if (scale === undefined) return undefined;
      value *= scale;
      gross *= scale;
      shortGross *= scale;
      places = productPlaces;
    } else if (productPlaces < places) {
      const scale = POWERS_OF_TEN[places - productPlaces];
      if (scale === undefined) return undefined;
      product *= scale;
    }
    value += product;
    gross += Math.abs(product);
    if (product < 0) shortGross -= product;
    // Every term and partial sum stays at or below 2^53, so each step above was exact.
    if (!(Math.abs(product) <= SAFE && gross <= SAFE)) return undefined;
  }
  const { currency } = ledger;
  const total = Money.fromRaw(value + 0, places, currency);
  // Without shorts the gross is the value (one amount, not two equal ones).
  return {
    value: total,
    gross: gross === value ? total : Money.fromRaw(gross, places, currency),
    shortGross: Money.fromRaw(shortGross, places, currency),
  };
}

/** The places of the slot's mark as its shortest decimal, remembered until the mark moves. */
function markPlacesOf(slot: SymbolSlot): number {
  if (slot.markPlacesAt !== slot.mark) {
    slot.markPlaces = floatPlacesNear(slot.mark, slot.markPlaces);
    slot.markPlacesAt = slot.mark;
  }
  return slot.markPlaces;
}
