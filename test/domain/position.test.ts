import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Money } from '../../src/domain/money.js';
import { applyFill, flatPosition, unrealizedPnl, type Position } from '../../src/domain/position.js';
import { Price } from '../../src/domain/price.js';
import { Quantity } from '../../src/domain/quantity.js';
import { parseSymbol } from '../../src/domain/symbol.js';

const SYMBOL = parseSymbol('700.HK');
const q = (value: number | string): Quantity => Quantity.of(value);
const p = (value: number | string): Price => Price.of(value);
const hkd = (value: number | string): Money => Money.of(value, 'HKD');

describe('position arithmetic', () => {
  it('averages the cost of two buys', () => {
    let position = applyFill(flatPosition(SYMBOL), { side: 'Buy', quantity: q(100), price: p(10) });
    position = applyFill(position, { side: 'Buy', quantity: q(100), price: p(12) });
    expect(position.quantity.toString()).toBe('200');
    expect(position.averageCost.toString()).toBe('11');
    expect(position.cost.toString()).toBe('2200');
  });

  it('realises profit on a sell and keeps the cost of the rest', () => {
    let position = applyFill(flatPosition(SYMBOL), { side: 'Buy', quantity: q(200), price: p(10) });
    position = applyFill(position, { side: 'Sell', quantity: q(50), price: p(13), commission: hkd(1) });
    expect(position.quantity.toString()).toBe('150');
    expect(position.averageCost.toString()).toBe('10');
    expect(position.realizedPnl.toString()).toBe('149');
    expect(position.realizedPnl.currency).toBe('HKD');
  });

  it('opens a short at the fill price when a sell crosses zero', () => {
    let position = applyFill(flatPosition(SYMBOL), { side: 'Buy', quantity: q(100), price: p(10) });
    position = applyFill(position, { side: 'Sell', quantity: q(150), price: p(9) });
    expect(position.quantity.toString()).toBe('-50');
    expect(position.averageCost.toString()).toBe('9');
    expect(position.realizedPnl.toString()).toBe('-100');
  });

  it('realises a closed short: sold at 10, bought back at 9', () => {
    let position = applyFill(flatPosition(SYMBOL), { side: 'Sell', quantity: q(100), price: p(10) });
    position = applyFill(position, { side: 'Buy', quantity: q(40), price: p(9) });
    expect([position.quantity.toString(), position.realizedPnl.toString(), position.averageCost.toString()]).toEqual(['-60', '40', '10']);
  });

  it('closes a position that cost a repeating average exactly (no rounding left over)', () => {
    // 100 at 10.5 and 50 at 10.7: an average of 10.5666…; closing all at 11 realises exactly 65.
    let position = applyFill(flatPosition(SYMBOL), { side: 'Buy', quantity: q(100), price: p('10.5') });
    position = applyFill(position, { side: 'Buy', quantity: q(50), price: p('10.7') });
    expect(position.averageCost.toString()).toBe('10.566666667');
    position = applyFill(position, { side: 'Sell', quantity: q(150), price: p(11) });
    expect(position.realizedPnl.toString()).toBe('65');
  });

  it('keeps the places of its cost bounded however many partial closes divide it', () => {
    // Each third of a position costing a repeating share rounds at the fill's places plus EXTRA_PLACES;
    // counted from the cost instead, the places grew by 8 a close and passed the 40 kept after 5.
    let position = applyFill(flatPosition(SYMBOL), { side: 'Buy', quantity: q(3 ** 12), price: p('10.01') });
    position = applyFill(position, { side: 'Buy', quantity: q(7), price: p('9.99') });
    for (let close = 0; close < 12; close += 1) {
      const third = position.quantity.dividedBy(q(3), 0, 'floor');
      position = applyFill(position, { side: 'Sell', quantity: third, price: p('10.5') });
      expect(position.cost.precision).toBeLessThanOrEqual(10);
    }
    const rest = position.quantity;
    position = applyFill(position, { side: 'Sell', quantity: rest, price: p('10.5') });
    expect(position.quantity.isZero()).toBe(true);
    // Realised in all: what 531,441 at 10.01 and 7 at 9.99 were sold for less what they cost, exactly.
    expect(position.realizedPnl.toString()).toBe(
      hkd('10.5')
        .times(q(531_448))
        .minus(hkd('10.01').times(q(531_441)))
        .minus(hkd('69.93'))
        .toString(),
    );
  });

  const fillArbitrary = fc.record({
    side: fc.constantFrom('Buy' as const, 'Sell' as const),
    quantity: fc.integer({ min: 1, max: 10_000 }).map((units) => q(units)),
    price: fc.integer({ min: 1, max: 1_000_000 }).map((cents) => p(cents / 100)),
  });

  it('conserves money exactly: realised + unrealised PnL equals cash flow + marked value, for any fills', () => {
    fc.assert(
      fc.property(fc.array(fillArbitrary, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 1_000_000 }), (fills, markCents) => {
        const mark = p(markCents / 100);
        let position = flatPosition(SYMBOL);
        let cash = hkd(0);
        for (const fill of fills) {
          position = applyFill(position, fill);
          const value = Money.notional(fill.quantity, fill.price, 'HKD');
          cash = fill.side === 'Buy' ? cash.minus(value) : cash.plus(value);
        }
        const total = position.realizedPnl.plus(unrealizedPnl(position, mark));
        const expected = cash.plus(Money.notional(position.quantity, mark, 'HKD'));
        expect(total.toString()).toBe(expected.toString());
      }),
    );
  });

  it('comes to the same position, raw for raw and place for place, when the caller gives the fill value it has', () => {
    const exact = (value: Quantity | Price | Money): string => `${value.raw}@${value.precision}`;
    const fields = (position: Position): string[] =>
      [position.quantity, position.cost, position.averageCost, position.realizedPnl].map(exact);
    const placed = fc.record({
      side: fc.constantFrom('Buy' as const, 'Sell' as const),
      // Few whole units at several places: fills that close a position exactly at other places than it was opened.
      quantity: fc.oneof(
        fc.tuple(fc.integer({ min: 1, max: 6 }), fc.nat(2)).map(([units, places]) => Quantity.fromRaw(units * 10 ** places, places)),
        fc.tuple(fc.integer({ min: 1, max: 10_000 }), fc.nat(2)).map(([raw, places]) => Quantity.fromRaw(raw, places)),
      ),
      price: fc.tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.nat(4)).map(([raw, places]) => Price.fromRaw(raw, places)),
      commission: fc.option(
        fc.nat(500).map((cents) => hkd(cents / 100)),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(fc.array(placed, { maxLength: 30 }), (fills) => {
        let plain = flatPosition(SYMBOL);
        let given = plain;
        for (const fill of fills) {
          plain = applyFill(plain, fill);
          given = applyFill(given, fill, Money.notional(fill.quantity, fill.price, 'HKD'));
          expect(fields(given)).toEqual(fields(plain));
        }
      }),
    );
  });

  it('nets quantity exactly to the sum of signed fills', () => {
    fc.assert(
      fc.property(fc.array(fillArbitrary, { maxLength: 40 }), (fills) => {
        const position = fills.reduce((held, fill) => applyFill(held, fill), flatPosition(SYMBOL));
        const net = fills.reduce((sum, fill) => (fill.side === 'Buy' ? sum.plus(fill.quantity) : sum.minus(fill.quantity)), q(0));
        expect(position.quantity.eq(net)).toBe(true);
        if (net.isZero()) expect([position.averageCost.isZero(), position.cost.isZero()]).toEqual([true, true]);
      }),
    );
  });
});
