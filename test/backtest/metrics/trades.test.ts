import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairTrades } from '../../../src/backtest/metrics/trades.js';
import { Decimal, decimalOf } from '../../../src/domain/decimal.js';
import type { FixedPoint } from '../../../src/domain/fixed-point.js';
import type { Fill } from '../../../src/domain/fill.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { DAY_MS, makeFill, SPY } from '../../support/backtest/fixtures.js';

const day = (n: number): number => n * DAY_MS;
const plain = (trade: {
  quantity: FixedPoint;
  entryPrice: FixedPoint;
  exitPrice: FixedPoint;
  commission: FixedPoint;
  pnl: FixedPoint;
  side: string;
}) => ({
  side: trade.side,
  quantity: trade.quantity.toFixed(),
  entryPrice: trade.entryPrice.toFixed(),
  exitPrice: trade.exitPrice.toFixed(),
  commission: trade.commission.toFixed(),
  pnl: trade.pnl.toFixed(),
});

describe('pairTrades', () => {
  it('closes a long round trip with both commissions in its pnl', () => {
    const ledger = pairTrades([
      makeFill('Buy', '100', '10', day(1), { commission: '1' }),
      makeFill('Sell', '100', '12', day(5), { commission: '1.2' }),
    ]);
    // (12 − 10) × 100 − (1 + 1.2) = 197.8
    expect(ledger.closed.map(plain)).toEqual([
      { side: 'Long', quantity: '100', entryPrice: '10', exitPrice: '12', commission: '2.2', pnl: '197.8' },
    ]);
    expect(ledger.closed[0]).toMatchObject({ entryTime: day(1), exitTime: day(5) });
    expect(ledger.open).toEqual([]);
  });

  it('matches exits against the oldest lots first and splits commissions pro rata', () => {
    const ledger = pairTrades([
      makeFill('Buy', '100', '10', day(1), { commission: '2' }),
      makeFill('Buy', '100', '11', day(2), { commission: '4' }),
      makeFill('Sell', '150', '13', day(3), { commission: '3' }),
    ]);
    // lot 1: 100 × (13 − 10) = 300, commission 2 + 3 × 100/150 = 4 → 296
    // lot 2: 50 × (13 − 11) = 100, commission 4 × 50/100 + 3 × 50/150 = 2 + 1 = 3 → 97
    expect(ledger.closed.map(plain)).toEqual([
      { side: 'Long', quantity: '100', entryPrice: '10', exitPrice: '13', commission: '4', pnl: '296' },
      { side: 'Long', quantity: '50', entryPrice: '11', exitPrice: '13', commission: '3', pnl: '97' },
    ]);
    expect(ledger.open).toHaveLength(1);
    expect(ledger.open[0]).toMatchObject({ side: 'Long', entryTime: day(2) });
    expect(ledger.open[0]!.quantity.toFixed()).toBe('50');
    expect(ledger.open[0]!.commission.toFixed()).toBe('2');
  });

  it('turns a reversing fill into a close plus a new lot the other way', () => {
    const ledger = pairTrades([
      makeFill('Buy', '10', '50', day(1), { commission: '1' }),
      makeFill('Sell', '30', '45', day(2), { commission: '3' }),
      makeFill('Buy', '20', '40', day(3)),
    ]);
    // long 10 @ 50 closed @ 45: −50 − (1 + 3 × 10/30) = −52
    // short 20 @ 45 closed @ 40: +100 − 3 × 20/30 = 98
    expect(ledger.closed.map(plain)).toEqual([
      { side: 'Long', quantity: '10', entryPrice: '50', exitPrice: '45', commission: '2', pnl: '-52' },
      { side: 'Short', quantity: '20', entryPrice: '45', exitPrice: '40', commission: '2', pnl: '98' },
    ]);
    expect(ledger.open).toEqual([]);
  });

  it('keeps symbols apart', () => {
    const other = parseSymbol('700.HK');
    const ledger = pairTrades([
      makeFill('Buy', '1', '10', day(1)),
      makeFill('Sell', '5', '300', day(1), { symbol: other }),
      makeFill('Sell', '1', '11', day(2)),
    ]);
    expect(ledger.closed.map((trade) => [trade.symbol, trade.pnl.toFixed()])).toEqual([[SPY, '1']]);
    expect(ledger.open.map((lot) => [lot.symbol, lot.side, lot.quantity.toFixed()])).toEqual([[other, 'Short', '5']]);
  });

  it('makes no trades from no fills', () => {
    expect(pairTrades([])).toEqual({ closed: [], open: [] });
  });
});

const symbols = [SPY, parseSymbol('700.HK'), parseSymbol('AAPL.US')];
const cents = (max: number) => fc.integer({ min: 1, max: max * 100 }).map((value) => new Decimal(value).dividedBy(100));
const fillArbitrary = fc.record({
  symbol: fc.constantFrom(...symbols),
  side: fc.constantFrom('Buy' as const, 'Sell' as const),
  quantity: fc.oneof(
    fc.integer({ min: 1, max: 1000 }).map((value) => new Decimal(value)),
    cents(50),
  ),
  price: cents(500),
  commission: fc.integer({ min: 0, max: 999 }).map((value) => new Decimal(value).dividedBy(100)),
});
const scenario = fc.record({
  fills: fc.array(fillArbitrary, { maxLength: 40 }),
  marks: fc.tuple(cents(500), cents(500), cents(500)),
});

function toFills(
  generated: readonly { symbol: (typeof symbols)[number]; side: 'Buy' | 'Sell'; quantity: Decimal; price: Decimal; commission: Decimal }[],
): Fill[] {
  return generated.map((fill, index) =>
    makeFill(fill.side, fill.quantity.toFixed(), fill.price.toFixed(), day(index), {
      symbol: fill.symbol,
      commission: fill.commission.toFixed(),
    }),
  );
}

// The references below sum in decimal.js, apart from the fixed-point values under test.
const ZERO = new Decimal(0);
const dec = decimalOf;

describe('pairTrades properties', () => {
  it('accounts for every unit of equity change: closed pnl + open pnl − open commissions = cash and mark change', () => {
    fc.assert(
      fc.property(scenario, ({ fills: generated, marks }) => {
        const fills = toFills(generated);
        const mark = new Map(symbols.map((symbol, index) => [symbol, marks[index]!]));
        // Equity change from the cash ledger: −Σ signed quantity × price − Σ commission + Σ position × mark.
        let change = ZERO;
        const position = new Map(symbols.map((symbol) => [symbol, ZERO]));
        for (const fill of fills) {
          const signed = dec(fill.side === 'Buy' ? fill.quantity : fill.quantity.negated());
          change = change.minus(signed.times(dec(fill.price))).minus(dec(fill.commission));
          position.set(fill.symbol, position.get(fill.symbol)!.plus(signed));
        }
        for (const symbol of symbols) change = change.plus(position.get(symbol)!.times(mark.get(symbol)!));

        const ledger = pairTrades(fills);
        let explained = ledger.closed.reduce((sum, trade) => sum.plus(dec(trade.pnl)), ZERO);
        for (const lot of ledger.open) {
          const move = mark.get(lot.symbol)!.minus(dec(lot.entryPrice)).times(dec(lot.quantity));
          explained = explained.plus(lot.side === 'Long' ? move : move.negated()).minus(dec(lot.commission));
        }
        expect(explained.toFixed()).toBe(change.toFixed());
      }),
    );
  });

  it('leaves open exactly the net position of each symbol, all on one side, and attributes every commission', () => {
    fc.assert(
      fc.property(scenario, ({ fills: generated }) => {
        const fills = toFills(generated);
        const ledger = pairTrades(fills);
        for (const symbol of symbols) {
          const net = fills
            .filter((fill) => fill.symbol === symbol)
            .reduce((sum, fill) => sum.plus(dec(fill.side === 'Buy' ? fill.quantity : fill.quantity.negated())), ZERO);
          const lots = ledger.open.filter((lot) => lot.symbol === symbol);
          const open = lots.reduce((sum, lot) => sum.plus(dec(lot.side === 'Long' ? lot.quantity : lot.quantity.negated())), ZERO);
          expect(open.toFixed()).toBe(net.toFixed());
          expect(new Set(lots.map((lot) => lot.side)).size).toBeLessThanOrEqual(1);
        }
        const charged = fills.reduce((sum, fill) => sum.plus(dec(fill.commission)), ZERO);
        const attributed = [...ledger.closed, ...ledger.open].reduce((sum, piece) => sum.plus(dec(piece.commission)), ZERO);
        expect(attributed.toFixed()).toBe(charged.toFixed());
        expect(ledger.closed.every((trade) => trade.quantity.gt(0) && trade.exitTime >= trade.entryTime)).toBe(true);
      }),
    );
  });
});
