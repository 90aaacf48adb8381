import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.js';
import { applyFill, flatPosition, unrealizedPnl } from '../../src/domain/position.js';
import { parseSymbol } from '../../src/domain/symbol.js';

const SYMBOL = parseSymbol('700.HK');
const d = (value: number | string): Decimal => new Decimal(value);

describe('position arithmetic', () => {
  it('averages the cost of two buys', () => {
    let position = applyFill(flatPosition(SYMBOL), { side: 'Buy', quantity: d(100), price: d(10) });
    position = applyFill(position, { side: 'Buy', quantity: d(100), price: d(12) });
    expect(position.quantity.toFixed()).toBe('200');
    expect(position.averageCost.toFixed()).toBe('11');
  });

  it('realises profit on a sell and keeps the cost of the rest', () => {
    let position = applyFill(flatPosition(SYMBOL), { side: 'Buy', quantity: d(200), price: d(10) });
    position = applyFill(position, { side: 'Sell', quantity: d(50), price: d(13), commission: d(1) });
    expect(position.quantity.toFixed()).toBe('150');
    expect(position.averageCost.toFixed()).toBe('10');
    expect(position.realizedPnl.toFixed()).toBe('149');
  });

  it('opens a short at the fill price when a sell crosses zero', () => {
    let position = applyFill(flatPosition(SYMBOL), { side: 'Buy', quantity: d(100), price: d(10) });
    position = applyFill(position, { side: 'Sell', quantity: d(150), price: d(9) });
    expect(position.quantity.toFixed()).toBe('-50');
    expect(position.averageCost.toFixed()).toBe('9');
    expect(position.realizedPnl.toFixed()).toBe('-100');
  });

  const fillArbitrary = fc.record({
    side: fc.constantFrom('Buy' as const, 'Sell' as const),
    quantity: fc.integer({ min: 1, max: 10_000 }).map((q) => d(q)),
    price: fc.integer({ min: 1, max: 1_000_000 }).map((p) => d(p).dividedBy(100)),
  });

  it('conserves money: realised + unrealised PnL equals cash flow + marked value, for any fills', () => {
    fc.assert(
      fc.property(fc.array(fillArbitrary, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 1_000_000 }), (fills, markCents) => {
        const mark = d(markCents).dividedBy(100);
        let position = flatPosition(SYMBOL);
        let cash = d(0);
        for (const fill of fills) {
          position = applyFill(position, fill);
          const value = fill.quantity.times(fill.price);
          cash = fill.side === 'Buy' ? cash.minus(value) : cash.plus(value);
        }
        const total = position.realizedPnl.plus(unrealizedPnl(position, mark));
        const expected = cash.plus(position.quantity.times(mark));
        expect(total.minus(expected).abs().lt('1e-20')).toBe(true);
      }),
    );
  });

  it('nets quantity exactly to the sum of signed fills', () => {
    fc.assert(
      fc.property(fc.array(fillArbitrary, { maxLength: 40 }), (fills) => {
        const position = fills.reduce(applyFill, flatPosition(SYMBOL));
        const net = fills.reduce((sum, fill) => (fill.side === 'Buy' ? sum.plus(fill.quantity) : sum.minus(fill.quantity)), d(0));
        expect(position.quantity.eq(net)).toBe(true);
        if (net.isZero()) expect(position.averageCost.isZero()).toBe(true);
      }),
    );
  });
});
