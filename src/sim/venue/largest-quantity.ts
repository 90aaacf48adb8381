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
  const bound = boundOf(search);
  if (bound === undefined) return Quantity.ZERO;
  if (search.feesOf === undefined) return gallopDown(search.fits, bound);
  return fromGuess(search.fits, bound, guessOf(search, bound));
}

/** The reference: from the upper bound down. */
export function largestQuantityByBound(search: QuantitySearch): Quantity {
  const bound = boundOf(search);
  return bound === undefined ? Quantity.ZERO : gallopDown(search.fits, bound);
}

/** extra + budget / unitCost + 1: no more than this can fit while fees are not negative. */
function boundOf({ budget, unitCost, extra = Quantity.ZERO }: QuantitySearch): Quantity | undefined {
  if (!unitCost.isPositive()) return undefined;
  return extra.plus(wholeUnits(budget, unitCost)).plus(ONE);
}

/** The largest fitting quantity in [0, bound], checking from the bound down. */
function gallopDown(fits: (quantity: Quantity) => boolean, bound: Quantity): Quantity {
  if (!fits(Quantity.ZERO)) return Quantity.ZERO;
  if (fits(bound)) return bound;
  return gallopBelow(fits, bound);
}

/** With fits(0) and not fits(high): gallops down from `high`, then bisects. */
function gallopBelow(fits: (quantity: Quantity) => boolean, from: Quantity): Quantity {
  let high = from;
  let low = Quantity.ZERO;
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
function guessOf({ budget, unitCost, extra = Quantity.ZERO, feesOf }: QuantitySearch, bound: Quantity): Quantity {
  const atBound = bound.minus(extra);
  if (!atBound.isPositive() || feesOf === undefined || !budget.isPositive()) return Quantity.ZERO;
  const perUnit = unitCost.plus(feesOf(atBound).dividedBy(atBound, unitCost.precision + 4, 'ceil'));
  return extra.plus(wholeUnits(budget, perUnit));
}

/** The answer in [0, bound], checking the guess first and galloping away from it. */
function fromGuess(fits: (quantity: Quantity) => boolean, bound: Quantity, guess: Quantity): Quantity {
  if (!(guess.isPositive() && guess.lt(bound))) return gallopDown(fits, bound);
  if (!fits(guess)) return fits(Quantity.ZERO) ? gallopBelow(fits, guess) : Quantity.ZERO;
  let low = guess;
  let high = bound;
  // Gallop up from the guess until a quantity no longer fits (the bound itself only when reached).
  for (let step = ONE; ; step = step.times(TWO)) {
    let probe = low.plus(step);
    if (probe.gte(bound)) probe = bound;
    if (!fits(probe)) {
      high = probe;
      break;
    }
    low = probe;
    if (probe.eq(bound)) return bound;
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
