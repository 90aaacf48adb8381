import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { floatPlaces, floatPlacesNear } from '../../../src/domain/fixed-text.js';
import { Fixed } from '../../../src/domain/fixed.js';
import { Money } from '../../../src/domain/money.js';
import { Price } from '../../../src/domain/price.js';
import { Quantity } from '../../../src/domain/quantity.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { Book, type CurrencyLedger, holdQuantity } from '../../../src/sim/venue/book.js';
import { type HeldValues, heldValues, heldValuesByMoney, heldValuesFast } from '../../../src/sim/venue/held-value.js';

interface Holding {
  readonly quantity: Quantity;
  readonly mark: number;
}

/** A USD ledger holding each position at its mark, as the venue's book holds them after fills and bars. */
function ledgerHolding(holdings: readonly Holding[]): CurrencyLedger {
  const book = new Book({ USD: Fixed.of(1_000_000) });
  holdings.forEach((holding, index) => {
    const slot = book.slot(parseSymbol(`S${index}.US`));
    slot.mark = holding.mark;
    holdQuantity(slot, holding.quantity);
    slot.position = {
      position: {
        symbol: slot.symbol,
        quantity: holding.quantity,
        averageCost: Price.of(holding.mark),
        cost: Money.notional(holding.quantity, Price.of(holding.mark), 'USD'),
      } as never,
      initQuantity: holding.quantity,
      dayKey: 0,
      reservedSell: Quantity.ZERO,
    };
    slot.ledger.held.push(slot);
  });
  return book.ledger('USD');
}

// Value and gross to the place (their precision carries into the figures); the short part by value.
const text = (values: HeldValues): [string, number, string, number, string] => [
  values.value.toString(),
  values.value.precision,
  values.gross.toString(),
  values.gross.precision,
  values.shortGross.toString(),
];

// Marks as the loader reads them: the float nearest a decimal of 0–8 places; quantities whole or fractional,
// long or short, small or near the safe range.
const marks = fc
  .tuple(fc.integer({ min: 1, max: 10_000_000_000 }), fc.integer({ min: 0, max: 8 }))
  .map(([units, places]) => Number(`${units}e-${places}`));
const quantities = fc.oneof(
  fc.integer({ min: -100_000, max: 100_000 }).map((units) => Quantity.of(units)),
  fc
    .tuple(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: 0, max: 6 }))
    .map(([units, places]) => Quantity.fromRaw(units, places)),
  fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }).map((units) => Quantity.of(units.toString())),
);
const holdings = fc.array(fc.record({ quantity: quantities, mark: marks }), { maxLength: 40 });

describe('held values (Σ quantity × mark, Σ |quantity × mark|)', () => {
  it('the fast sums equal the Money sums, value and precision, whenever they answer', () => {
    fc.assert(
      fc.property(holdings, (held) => {
        const ledger = ledgerHolding(held);
        const fast = heldValuesFast(ledger);
        const reference = heldValuesByMoney(ledger);
        if (fast !== undefined) expect(text(fast)).toEqual(text(reference));
        expect(text(heldValues(ledger))).toEqual(text(reference));
      }),
      { numRuns: 2_000 },
    );
  });

  it('answers for ordinary books', () => {
    const ledger = ledgerHolding([
      { quantity: Quantity.of(100), mark: 123.45 },
      { quantity: Quantity.of(-30), mark: 7.125 },
      { quantity: Quantity.of('0.5'), mark: 3010 },
    ]);
    const fast = heldValuesFast(ledger);
    expect(fast && text(fast)).toEqual(['13636.25', 3, '14063.75', 3, '213.75']);
  });

  it('gives way to the Money sums beyond 2^53', () => {
    const ledger = ledgerHolding([{ quantity: Quantity.of('9007199254740993'), mark: 2.5 }]);
    expect(heldValuesFast(ledger)).toBeUndefined();
    expect(heldValues(ledger).value.toString()).toBe('22517998136852482.5');
  });

  it('follows a mark that moves to more or fewer places', () => {
    const ledger = ledgerHolding([{ quantity: Quantity.of(10), mark: 1.5 }]);
    const slot = ledger.held[0]!;
    for (const mark of [1.25, 1.125, 2, 0.0001, 99.9]) {
      slot.mark = mark;
      slot.markPrice = undefined;
      expect(text(heldValuesFast(ledger)!)).toEqual(text(heldValuesByMoney(ledger)));
    }
  });
});

describe('floatPlacesNear', () => {
  it('is floatPlaces whatever the hint', () => {
    fc.assert(
      fc.property(marks, fc.integer({ min: -1, max: 10 }), (mark, hint) => {
        expect(floatPlacesNear(mark, hint)).toBe(floatPlaces(mark));
      }),
      { numRuns: 5_000 },
    );
  });
});
