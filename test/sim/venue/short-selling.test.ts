import { describe, expect, it } from 'vitest';
import { dayBar, Harness, HK, order } from './fixtures.js';

const MARGIN = { default: { im: '0.5', mm: '0.4', fm: '0.3' } };

describe('short positions in the account figures', () => {
  it('holds initial and maintenance margin on a short, and buy power and the margin call follow its mark', () => {
    const sim = new Harness({ cash: { HKD: '100000' }, shortSelling: true, marginRatios: MARGIN });
    sim.bar(dayBar(HK, '2024-01-02', 100, 100, 100, 100));
    sim.venue.submit(order(HK, 'Sell', 1000));
    sim.bar(dayBar(HK, '2024-01-03', 100, 100, 100, 100));
    const figures = () => {
      const [balance] = sim.venue.accountBalance('HKD');
      return [
        balance!.totalCash,
        balance!.netAssets,
        balance!.initMargin,
        balance!.maintenanceMargin,
        balance!.buyPower,
        balance!.marginCall,
      ].map((value) => value.toFixed());
    };
    // Cash 100000 + 100000 from the sale; short value 100000: im 50000, mm 40000, excess 50000, buy power 50000 / 0.5.
    expect(figures()).toEqual(['200000', '100000', '50000', '40000', '100000', '0']);
    expect(sim.venue.positions()[0]!.quantity.toFixed()).toBe('-1000');

    sim.bar(dayBar(HK, '2024-01-04', 150, 150, 150, 150));
    // At 150 the short is worth 150000: net assets 50000 < maintenance 60000, a margin call of 10000.
    expect(figures()).toEqual(['200000', '50000', '75000', '60000', '0', '10000']);
    expect(sim.venue.accountBalance('HKD')[0]!.riskLevel).toBe(2);
  });

  it('refuses a short the excess liquidity cannot margin', () => {
    const sim = new Harness({ cash: { HKD: '10000' }, shortSelling: true, marginRatios: MARGIN });
    sim.bar(dayBar(HK, '2024-01-02', 100, 100, 100, 100));
    const refused = sim.venue.submit(order(HK, 'Sell', 1000));
    expect([refused.status, refused.message]).toEqual([
      'RejectedStatus',
      'insufficient buying power: the order needs 50000 HKD, 10000 available',
    ]);
  });
});

describe("short positions' own margin factors (shortMarginRatios)", () => {
  const SHORT_MARGIN = { im: '1.5', mm: '1.3', fm: '1.2' };
  const figuresOf = (sim: Harness) => {
    const [balance] = sim.venue.accountBalance('HKD');
    return {
      figures: [balance!.netAssets, balance!.initMargin, balance!.maintenanceMargin, balance!.buyPower].map((value) => value.toFixed()),
      riskLevel: balance!.riskLevel,
    };
  };

  it("margins a short at its own factors and a long at the symbol's, in figures, buy power and risk level", () => {
    const sim = new Harness({
      cash: { HKD: '100000', USD: '0' },
      shortSelling: true,
      marginRatios: MARGIN,
      shortMarginRatios: SHORT_MARGIN,
      instruments: { [HK]: { lotSize: 1, tick: '0.001' }, '5.HK': { lotSize: 1, tick: '0.001' } },
    });
    const HSBC = '5.HK' as typeof HK;
    sim.bar(dayBar(HK, '2024-01-02', 100, 100, 100, 100)).bar(dayBar(HSBC, '2024-01-02', 50, 50, 50, 50));
    sim.venue.submit(order(HK, 'Sell', 200));
    sim.venue.submit(order(HSBC, 'Buy', 400));
    sim.bar(dayBar(HK, '2024-01-03', 100, 100, 100, 100)).bar(dayBar(HSBC, '2024-01-03', 50, 50, 50, 50));
    // Short 20000 at 1.5/1.3 and long 20000 at 0.5/0.4: im 30000 + 10000, mm 26000 + 8000; excess 60000 / 0.5.
    expect(figuresOf(sim)).toEqual({ figures: ['100000', '40000', '34000', '120000'], riskLevel: 0 });

    sim.bar(dayBar(HK, '2024-01-04', 200, 200, 200, 200));
    // The short doubles to 40000: net assets 80000, im 60000 + 10000, mm 52000 + 8000; excess 10000 / 0.5.
    expect(figuresOf(sim)).toEqual({ figures: ['80000', '70000', '60000', '20000'], riskLevel: 0 });
    sim.bar(dayBar(HK, '2024-01-05', 300, 300, 300, 300));
    // Short 60000: im 90000 + 10000, mm 78000 + 8000, fm 72000 + 6000; net assets 60000 is below them all.
    expect(figuresOf(sim)).toEqual({ figures: ['60000', '100000', '86000', '0'], riskLevel: 3 });
  });

  it('holds the short initial margin for an opening sell and sizes the sell limit by it', () => {
    const sim = new Harness({ cash: { HKD: '30000' }, shortSelling: true, shortMarginRatios: SHORT_MARGIN });
    sim.bar(dayBar(HK, '2024-01-02', 100, 100, 100, 100));
    // 30000 of excess margins 30000 / (100 × 1.5) = 200 shares short.
    expect(sim.venue.buyLimit({ symbol: HK, orderType: 'MO', side: 'Sell' }).marginMaxQty.toFixed()).toBe('200');
    const refused = sim.venue.submit(order(HK, 'Sell', 201));
    expect([refused.status, refused.message]).toEqual([
      'RejectedStatus',
      'insufficient buying power: the order needs 30150 HKD, 30000 available',
    ]);
    expect(sim.venue.submit(order(HK, 'Sell', 200)).status).not.toBe('RejectedStatus');
  });
});
