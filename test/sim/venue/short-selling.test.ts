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
