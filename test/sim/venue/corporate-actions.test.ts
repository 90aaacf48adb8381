import { describe, expect, it } from 'vitest';
import { dayBar, f, Harness, HK, order, p } from './fixtures.js';

const dividend = (exDate: string, perShare: string) => ({ kind: 'dividend', symbol: HK, exDate, perShare: p(perShare) }) as const;
const split = (exDate: string, ratio: string) => ({ kind: 'split', symbol: HK, exDate, ratio: f(ratio) }) as const;

describe('corporate actions on unadjusted prices', () => {
  it('credits a holder the dividend on the ex-date, before the ex-date bar', () => {
    const sim = new Harness({ cash: { HKD: '100000' } });
    const input = sim.venue.barInput(HK, [dividend('2024-01-04', '1.25')]);
    const bar = (date: string, price: number) => {
      sim.clock.advanceTo(dayBar(HK, date, price, price, price, price).time);
      input.onBar(dayBar(HK, date, price, price, price, price));
    };
    bar('2024-01-02', 100);
    sim.venue.submit(order(HK, 'Buy', 300));
    bar('2024-01-03', 100); // bought 300 at 100: cash 70000
    expect(sim.cash()).toBe('70000');
    bar('2024-01-04', 98.75); // ex-date: 300 × 1.25 = 375
    expect(sim.cash()).toBe('70375');
    expect(sim.venue.positions()[0]!.costPrice.toFixed()).toBe('100');
  });

  it('debits a short holder the dividend', () => {
    const sim = new Harness({ cash: { HKD: '100000' }, shortSelling: true });
    const input = sim.venue.barInput(HK, [dividend('2024-01-04', '2')]);
    for (const [date, price] of [
      ['2024-01-02', 50],
      ['2024-01-03', 50],
      ['2024-01-04', 48],
    ] as const) {
      sim.clock.advanceTo(dayBar(HK, date, price, price, price, price).time);
      input.onBar(dayBar(HK, date, price, price, price, price));
      if (date === '2024-01-02') sim.venue.submit(order(HK, 'Sell', 100));
    }
    // Sold 100 short at 50 (+5000), then paid 100 × 2 on the ex-date.
    expect(sim.cash()).toBe(String(100000 + 5000 - 200));
  });

  it('splits the position, its average cost and open orders, paying the odd share in cash', () => {
    const sim = new Harness({ cash: { HKD: '100000' } });
    const input = sim.venue.barInput(HK, [split('2024-01-04', '1.5')]);
    const bar = (date: string, price: number) => {
      sim.clock.advanceTo(dayBar(HK, date, price, price, price, price).time);
      input.onBar(dayBar(HK, date, price, price, price, price));
    };
    bar('2024-01-02', 90);
    sim.venue.submit(order(HK, 'Buy', 101));
    bar('2024-01-03', 90); // 101 at 90 = 9090
    const resting = sim.venue.submit(order(HK, 'Sell', 100, { price: p('120') }));
    bar('2024-01-04', 60); // 1.5-for-1: 151.5 shares → 151 and 0.5 × 60 = 30 in cash
    const [position] = sim.venue.positions();
    expect([position!.quantity.toFixed(), position!.costPrice.toFixed()]).toEqual(['151', '60']);
    expect(sim.cash()).toBe(String(100000 - 9090 + 30));
    const adjusted = sim.venue.order(resting.orderId);
    expect([adjusted.quantity.toFixed(), adjusted.price?.toString()]).toEqual(['150', '80']);
  });

  it('counts a position bought after a split paid all of the last one in cash once', () => {
    const sim = new Harness({ cash: { HKD: '1000000' } });
    const input = sim.venue.barInput(HK, [split('2024-01-04', '0.005')]);
    const bar = (date: string, price: number) => {
      sim.clock.advanceTo(dayBar(HK, date, price, price, price, price).time);
      input.onBar(dayBar(HK, date, price, price, price, price));
    };
    bar('2024-01-02', 10);
    sim.venue.submit(order(HK, 'Buy', 100));
    bar('2024-01-03', 10); // 100 at 10 = 1000
    bar('2024-01-04', 2000); // 1-for-200: 0.5 of a share, paid 0.5 × 2000 in cash; nothing held
    expect([sim.venue.positions(), sim.cash()]).toEqual([[], '1000000']);
    sim.venue.submit(order(HK, 'Buy', 100));
    bar('2024-01-05', 2000); // 100 at 2000
    expect(sim.cash()).toBe('800000');
    expect(sim.venue.accountBalance()[0]!.netAssets.toFixed()).toBe('1000000');
  });

  it('charges a short position its borrow fee for each calendar day held', () => {
    const sim = new Harness({ cash: { HKD: '100000' }, shortSelling: true, borrowFeeRate: 0.0365 });
    const input = sim.venue.barInput(HK);
    for (const date of ['2024-01-04', '2024-01-05', '2024-01-08']) {
      sim.clock.advanceTo(dayBar(HK, date, 100, 100, 100, 100).time);
      input.onBar(dayBar(HK, date, 100, 100, 100, 100));
      if (date === '2024-01-04') sim.venue.submit(order(HK, 'Sell', 1000));
    }
    // Short 1000 at 100 from the 5th: 100000 × 0.0365 / 365 = 10 a day, 3 days to the 8th.
    expect(sim.cash()).toBe(String(100000 + 100000 - 30));
  });
});
