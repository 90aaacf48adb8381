// The largest whole quantity an account can pay for: the buy limit's searches. `fits` must turn false as the
// quantity grows (cost plus fees only grow). The reference gallops down from the upper bound and bisects;
// the guessed search starts where proportional fees would put the answer, so a buy limit with a fee model
// takes a few fee computations instead of one per halving. One shared suite checks both
// (test/sim/venue/largest-quantity.test.ts).
import { Fixed } from '../../domain/fixed.js';
import type { Money } from '../../domain/money.js';
import { Quantity } from '../../domain/quantity.js';

const ONE = Quantity.of(1);
const TWO = Fixed.of(2);

export interface QuantitySearch {
  /** Whether `quantity` can be paid for. */
  readonly fits: (quantity: Quantity) => boolean;
  readonly budget: Money;
  /** What one unit costs without fees (the search's upper bound is budget / unitCost + 1 past `extra`). */
  readonly unitCost: Money;
  /** Units that cost nothing against the budget (shares that close a position). */
  readonly extra?: Quantity;
  /** The fees of a quantity, when there are any: the guessed search starts from them. */
  readonly feesOf?: (quantity: Quantity) => Money;
}

export function largestQuantity(search: QuantitySearch): Quantity {
  const bounds = boundsOf(search);
  if (bounds === undefined) return Quantity.ZERO;
  if (search.feesOf === undefined) return gallopDown(search.fits, bounds);
  return fromGuess(search.fits, bounds, guessOf(search, bounds));
}

/** The reference: from the upper bound down. */
export function largestQuantityByBound(search: QuantitySearch): Quantity {
  const bounds = boundsOf(search);
  return bounds === undefined ? Quantity.ZERO : gallopDown(search.fits, bounds);
}

interface Bounds {
  /** fits(low) holds. */
  readonly low: Quantity;
  /** fits(high) does not, or the answer is high itself (then `found`). */
  readonly high: Quantity;
  readonly found: boolean;
}

function boundsOf({ fits, budget, unitCost, extra = Quantity.ZERO }: QuantitySearch): Bounds | undefined {
  if (!unitCost.isPositive()) return undefined;
  const bound = extra.plus(wholeUnits(budget, unitCost)).plus(ONE);
  if (!fits(Quantity.ZERO)) return undefined;
  return { low: Quantity.ZERO, high: bound, found: fits(bound) };
}

function gallopDown(fits: (quantity: Quantity) => boolean, bounds: Bounds): Quantity {
  if (bounds.found) return bounds.high;
  let high = bounds.high;
  let low = bounds.low;
  for (let step = ONE; ; step = step.times(TWO)) {
    const probe = high.minus(step);
    if (!probe.isPositive()) break;
    if (fits(probe)) {
      low = probe;
      break;
    }
    high = probe;
  }
  return bisect(fits, low, high);
}

/** Where fees proportional to the bound's would put the answer: extra + budget / (unit cost + fee per unit). */
function guessOf({ budget, unitCost, extra = Quantity.ZERO, feesOf }: QuantitySearch, bounds: Bounds): Quantity {
  const atBound = bounds.high.minus(extra);
  if (!atBound.isPositive() || feesOf === undefined || !budget.isPositive()) return bounds.low;
  const perUnit = unitCost.plus(feesOf(atBound).dividedBy(atBound, unitCost.precision + 4, 'ceil'));
  return extra.plus(wholeUnits(budget, perUnit));
}

function fromGuess(fits: (quantity: Quantity) => boolean, bounds: Bounds, guess: Quantity): Quantity {
  if (bounds.found) return bounds.high;
  if (!(guess.gt(bounds.low) && guess.lt(bounds.high))) return gallopDown(fits, bounds);
  if (!fits(guess)) return gallopDown(fits, { low: bounds.low, high: guess, found: false });
  let low = guess;
  let high = bounds.high;
  // Gallop up from the guess until a quantity no longer fits.
  for (let step = ONE; ; step = step.times(TWO)) {
    const probe = low.plus(step);
    if (probe.gte(high)) break;
    if (!fits(probe)) {
      high = probe;
      break;
    }
    low = probe;
  }
  return bisect(fits, low, high);
}

/** With fits(low) and not fits(high): the largest fitting quantity between them. */
function bisect(fits: (quantity: Quantity) => boolean, from: Quantity, to: Quantity): Quantity {
  let low = from;
  let high = to;
  while (high.minus(low).gt(ONE)) {
    const middle = low.plus(high).dividedBy(TWO, 0, 'floor');
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/** floor(max(0, budget) / unitCost) for unitCost > 0, exactly (a whole-number division of the raws). */
export function wholeUnits(budget: Money, unitCost: Money): Quantity {
  if (!budget.isPositive()) return Quantity.ZERO;
  const units = budget.dividedBy(unitCost, 0, 'floor');
  return Quantity.fromRaw(units.raw, 0);
}
