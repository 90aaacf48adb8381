import { describe, expect, it } from 'vitest';
import { p, q, dayBar, dayTime, Harness, HK, order, US } from './fixtures.js';
import { equityOf } from '../../../src/sim/venue/book.js';

const D1 = dayBar(HK, '2024-01-02', 10, 11, 9, 10);
const AT_10 = (date: string) => dayBar(HK, date, 10, 10, 10, 10);

describe('buy limit and margin ratio agree with the account', () => {
  it('answers the largest cash-paid quantity including fees, and an order of exactly that size is accepted', () => {
    const sim = new Harness({ cash: { HKD: '10000' }, fees: { commissionRate: 0.001 } }).bar(D1);

    const limit = sim.venue.buyLimit({ symbol: HK, orderType: 'LO', side: 'Buy', price: p(10) });

    // q × 10 × 1.001 ≤ 10000 → 999
    expect(limit.cashMaxQty.toFixed()).toBe('999');
    expect(limit.marginMaxQty.toFixed()).toBe('999');
    expect(sim.venue.submit(order(HK, 'Buy', 1000, { price: p(10) })).status).toBe('RejectedStatus');
    expect(sim.venue.submit(order(HK, 'Buy', 999, { price: p(10) })).status).toBe('NewStatus');
    expect(sim.venue.buyLimit({ symbol: HK, orderType: 'LO', side: 'Buy', price: p(10) }).cashMaxQty.toFixed()).toBe('0');
  });

  it('lets a margin account buy up to excess liquidity over the initial margin factor', () => {
    const ratios = { default: { im: '0.5', mm: '0.4', fm: '0.3' } };
    const sim = new Harness({ cash: { HKD: '10000' }, marginRatios: ratios, fees: { commissionRate: 0.001 } }).bar(D1);

    const limit = sim.venue.buyLimit({ symbol: HK, orderType: 'LO', side: 'Buy', price: p(10) });

    // q × (10 × 0.5 + 0.01) ≤ 10000 → 1996
    expect(limit.cashMaxQty.toFixed()).toBe('999');
    expect(limit.marginMaxQty.toFixed()).toBe('1996');
    const ratio = sim.venue.marginRatio(HK);
    expect([ratio.imFactor.toFixed(), ratio.mmFactor.toFixed(), ratio.fmFactor.toFixed()]).toEqual(['0.5', '0.4', '0.3']);
    expect(sim.venue.submit(order(HK, 'Buy', 1997, { price: p(10) })).status).toBe('RejectedStatus');
    expect(sim.venue.submit(order(HK, 'Buy', 1996, { price: p(10) })).status).toBe('NewStatus');
  });

  it('reports margins, margin call and risk level marked at the last price', () => {
    const ratios = { default: { im: '0.5', mm: '0.4', fm: '0.3' } };
    const sim = new Harness({ cash: { HKD: '10000' }, marginRatios: ratios }).bar(D1);
    sim.venue.submit(order(HK, 'Buy', 2000, { price: p(10) }));
    sim.bar(AT_10('2024-01-03'));

    const healthy = sim.venue.accountBalance('HKD')[0]!;
    expect(healthy.totalCash.toFixed()).toBe('-10000');
    expect(healthy.netAssets.toFixed()).toBe('10000');
    expect(healthy.initMargin.toFixed()).toBe('10000');
    expect(healthy.maintenanceMargin.toFixed()).toBe('8000');
    expect(healthy.riskLevel).toBe(0);
    expect(healthy.buyPower.toFixed()).toBe('0');

    sim.bar(dayBar(HK, '2024-01-04', 6, 6, 6, 6));
    const margined = sim.venue.accountBalance('HKD')[0]!;
    // net assets −10000 + 12000 = 2000; maintenance 4800; forced 3600
    expect(margined.netAssets.toFixed()).toBe('2000');
    expect(margined.marginCall.toFixed()).toBe('2800');
    expect(margined.riskLevel).toBe(3);
  });

  it('marks held positions afresh after each bar and each fill, also between orders of one bar time', () => {
    const sim = new Harness({ cash: { HKD: '10000' } }).bar(D1);
    sim.venue.submit(order(HK, 'Buy', 100));
    sim.bar(AT_10('2024-01-03'));
    expect(sim.venue.accountBalance('HKD')[0]!.netAssets.toFixed()).toBe('10000');
    // An order between bars changes only reservations: the held value is the same, the buy power less.
    sim.venue.submit(order(HK, 'Buy', 50, { price: p(10) }));
    const reserved = sim.venue.accountBalance('HKD')[0]!;
    expect(reserved.netAssets.toFixed()).toBe('10000');
    expect(reserved.buyPower.toFixed()).toBe('8500');
    sim.bar(dayBar(HK, '2024-01-04', 12, 12, 12, 12));
    // The limit order at 10 does not fill at 12 (and its day ends); the 100 held are marked at 12.
    const moved = sim.venue.accountBalance('HKD')[0]!;
    expect(moved.netAssets.toFixed()).toBe('10200');
    sim.bar(dayBar(HK, '2024-01-05', 9, 9, 9, 9));
    const fallen = sim.venue.accountBalance('HKD')[0]!;
    expect(fallen.totalCash.toFixed()).toBe('9000');
    expect(fallen.netAssets.toFixed()).toBe('9900');
    // A fill between two orders of one bar time: the second order sees the first one's position.
    sim.venue.submit(order(HK, 'Sell', 100));
    sim.bar(dayBar(HK, '2024-01-08', 11, 11, 11, 11));
    expect(sim.venue.accountBalance('HKD')[0]!.netAssets.toFixed()).toBe('10100');
  });

  it("uses a symbol's own margin ratio over the default", () => {
    const sim = new Harness({ marginRatios: { symbols: { '0700.HK': { im: '0.25', mm: '0.2', fm: '0.1' } } } });
    expect(sim.venue.marginRatio(HK).imFactor.toFixed()).toBe('0.25');
    expect(sim.venue.marginRatio(US).imFactor.toFixed()).toBe('1');
  });

  it('answers the sellable quantity for the sell side, net of open sells', () => {
    const sim = new Harness().bar(D1);
    sim.venue.submit(order(HK, 'Buy', 300));
    sim.bar(AT_10('2024-01-03'));
    sim.venue.submit(order(HK, 'Sell', 100, { price: p(12), timeInForce: 'GTC' }));

    const limit = sim.venue.buyLimit({ symbol: HK, orderType: 'LO', side: 'Sell', price: p(10) });
    expect(limit.cashMaxQty.toFixed()).toBe('200');
    expect(limit.marginMaxQty.toFixed()).toBe('200');
    expect(sim.venue.positions()[0]!.availableQuantity.toFixed()).toBe('200');
    expect(sim.venue.submit(order(HK, 'Sell', 201, { price: p(12) })).status).toBe('RejectedStatus');
  });
});

describe('short selling', () => {
  it('allows a short sell when enabled and margins it at the initial factor', () => {
    const sim = new Harness({ cash: { HKD: '1000' }, shortSelling: true }).bar(D1);

    expect(sim.venue.buyLimit({ symbol: HK, orderType: 'MO', side: 'Sell' }).marginMaxQty.toFixed()).toBe('100');
    expect(sim.venue.submit(order(HK, 'Sell', 101)).status).toBe('RejectedStatus');
    sim.venue.submit(order(HK, 'Sell', 100));
    sim.bar(AT_10('2024-01-03'));

    const balance = sim.venue.accountBalance('HKD')[0]!;
    expect(sim.venue.positions()[0]!.quantity.toFixed()).toBe('-100');
    expect(balance.totalCash.toFixed()).toBe('2000');
    expect(balance.netAssets.toFixed()).toBe('1000');
    expect(sim.venue.equityEstimate('HKD')).toBe(1000);
  });
});

describe('cash, positions and multi-currency', () => {
  it('keeps cash per currency and settles each market in its own currency', () => {
    const sim = new Harness({ cash: { HKD: '1000000', USD: '10000' } }).bar(D1).bar(dayBar(US, '2024-01-02', 150, 151, 149, 150));

    expect(sim.venue.submit(order(US, 'Buy', 100)).status).toBe('RejectedStatus');
    sim.venue.submit(order(US, 'Buy', 50));
    sim.bar(dayBar(US, '2024-01-03', 152, 153, 151, 152));

    expect(sim.cash('USD')).toBe('2400');
    expect(sim.cash('HKD')).toBe('1000000');
    const usd = sim.venue.accountBalance('USD')[0]!;
    expect(usd.currency).toBe('USD');
    expect(usd.netAssets.toFixed()).toBe('10000');
    expect(sim.venue.positions([US])[0]!.currency).toBe('USD');
    expect(sim.venue.accountBalance().map((balance) => balance.currency)).toEqual(['HKD', 'USD']);
  });

  it('reports init_quantity as the quantity at the start of the market day', () => {
    const sim = new Harness().bar(D1);
    sim.venue.submit(order(HK, 'Buy', 100));
    sim.bar(AT_10('2024-01-03'));
    expect(sim.venue.positions()[0]!.initQuantity!.toFixed()).toBe('0');

    sim.bar(AT_10('2024-01-04'));
    expect(sim.venue.positions()[0]!.initQuantity!.toFixed()).toBe('100');
    sim.venue.submit(order(HK, 'Sell', 40));
    sim.bar(AT_10('2024-01-05'));

    const [position] = sim.venue.positions();
    expect(position!.quantity.toFixed()).toBe('60');
    expect(position!.initQuantity!.toFixed()).toBe('100');
  });

  it('holds back cash for open buy orders and counts it as frozen', () => {
    const sim = new Harness({ cash: { HKD: '10000' }, fees: { commissionRate: 0.001 } }).bar(D1);
    sim.venue.submit(order(HK, 'Buy', 100, { price: p(10) }));

    const cash = sim.venue.accountBalance('HKD')[0]!.cashInfos[0]!;
    expect(cash.frozenCash.toFixed()).toBe('1001');
    expect(cash.availableCash.toFixed()).toBe('8999');
    expect(sim.venue.accountBalance('HKD')[0]!.frozenTransactionFees[0]!.frozenTransactionFee.toFixed()).toBe('1');
  });

  it('counts the fees of every open buy as frozen, and lets them go as orders fill, shrink or end', () => {
    const frozenFee = (sim: Harness): string =>
      sim.venue.accountBalance('HKD')[0]!.frozenTransactionFees[0]!.frozenTransactionFee.toFixed();
    const sim = new Harness({ cash: { HKD: '100000' }, fees: { commissionRate: 0.001 } }).bar(D1);
    const first = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10) }));
    sim.venue.submit(order(HK, 'Buy', 200, { price: p(8) }));
    sim.venue.submit(order(HK, 'Sell', 50, { price: p(20) }));
    // 100 × 10 × 0.001 + 200 × 8 × 0.001; sells hold no fees back.
    expect(frozenFee(sim)).toBe('2.6');
    sim.venue.replace(first.orderId, { quantity: q(50), price: p(10) });
    expect(frozenFee(sim)).toBe('2.1');
    sim.venue.cancel(first.orderId);
    expect(frozenFee(sim)).toBe('1.6');
    sim.bar(dayBar(HK, '2024-01-03', 8, 8, 8, 8));
    expect(frozenFee(sim)).toBe('0');
  });

  it('keeps the float equity estimate equal to net assets as prices move', () => {
    const sim = new Harness({ fees: { commissionRate: 0.001 } }).bar(D1);
    sim.venue.submit(order(HK, 'Buy', 300));
    for (const [date, close] of [
      ['2024-01-03', 10.37],
      ['2024-01-04', 11.11],
      ['2024-01-05', 9.83],
    ] as const) {
      sim.bar(dayBar(HK, date, 10.2, 11.5, 9.5, close));
      expect(sim.venue.equityEstimate('HKD')).toBeCloseTo(sim.venue.accountBalance('HKD')[0]!.netAssets.toNumber(), 6);
    }
    expect(sim.venue.positionQuantity(HK)).toBe(300);
    expect(sim.venue.markPrice(HK)).toBe(9.83);
    expect(sim.venue.executions()[0]!.time).toBe(dayTime(HK, '2024-01-03'));
  });

  it('shows the equity estimate and whether positions are held through its ledgers, as a backtest reads them per bar time', () => {
    const sim = new Harness({ cash: { HKD: '5000' } }).bar(D1);
    const ledgers = sim.venue.ledgers;
    const point = { equity: Number.NaN, exposed: true };
    equityOf(ledgers, 'HKD', point);
    expect(point).toEqual({ equity: 5000, exposed: false });

    sim.venue.submit(order(HK, 'Buy', 100));
    sim.bar(dayBar(HK, '2024-01-03', 10, 12, 9, 11.5));
    // The same list, read again: it follows the venue.
    equityOf(ledgers, 'HKD', point);
    expect(point.exposed).toBe(true);
    expect(point.equity).toBe(sim.venue.equityEstimate('HKD'));
    expect(point.equity).toBeCloseTo(sim.venue.accountBalance('HKD')[0]!.netAssets.toNumber(), 6);

    // No ledger in USD: no equity there, but the HKD position still counts as exposure.
    equityOf(ledgers, 'USD', point);
    expect(point).toEqual({ equity: 0, exposed: true });
  });
});

describe('amounts beyond 2^53 of their smallest unit', () => {
  it('keeps cash, fees and net assets exact when the raw passes 2^53 (a bigint, never a rounded float)', () => {
    // 90,071,992,547,409.93 HKD is 9,007,199,254,740,993 cents: one float cannot hold it.
    const sim = new Harness({ cash: { HKD: '90071992547409.93' }, fees: { commissionRate: 0.001 } }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 1000, { price: p('10.01') }));
    sim.bar(dayBar(HK, '2024-01-03', 10, 10.5, 9.5, 10.2));

    expect(sim.venue.order(placed.orderId).status).toBe('FilledStatus');
    // Bought 1,000 at the open of 10 (the limit 10.01 is above it), commission 0.1 % of 10,000.
    expect(sim.cash()).toBe('90071992537399.93');
    const balance = sim.venue.accountBalance('HKD')[0]!;
    expect(typeof balance.totalCash.raw).toBe('bigint');
    // Net assets: the cash plus 1,000 marked at the close of 10.2.
    expect(balance.netAssets.toFixed()).toBe('90071992547599.93');
  });
});
