import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../../src/domain/order.js';
import { p, dayBar, Harness, HK, localTime, minuteBar, order, US } from './fixtures.js';

const D1 = dayBar(HK, '2024-01-02', 10, 11, 9, 10.5);

function rejection(sim: Harness, request: OrderRequest): string {
  const placed = sim.venue.submit(request);
  expect(placed.status).toBe('RejectedStatus');
  expect(sim.updates.at(-1)!.status).toBe('RejectedStatus');
  return placed.message;
}

describe('rejections are orders in RejectedStatus with a reason', () => {
  const sim = new Harness({ cash: { HKD: '10000' } }).bar(D1);

  it.each([
    ['a non-positive quantity', order(HK, 'Buy', 0), 'bad quantity: 0 is not a positive number'],
    ['a limit order without a price', order(HK, 'Buy', 100, { orderType: 'LO' }), 'bad price: LO orders need a positive price'],
    ['a negative price', order(HK, 'Buy', 100, { price: p(-1) }), 'bad price: LO orders need a positive price, got -1'],
    [
      'a touched order without a trigger',
      order(HK, 'Buy', 100, { orderType: 'MIT' }),
      'bad trigger price: MIT orders need a positive trigger price',
    ],
    [
      'a trailing order without an amount',
      order(HK, 'Sell', 100, { orderType: 'TSLPAMT' }),
      'bad trailing amount: TSLPAMT orders need a positive trailing amount',
    ],
    ['a GTD order without a date', order(HK, 'Buy', 100, { timeInForce: 'GTD' }), 'expire_date is required for GTD orders'],
    [
      'a GTD order expiring in the past',
      order(HK, 'Buy', 100, { timeInForce: 'GTD', expireDate: '2023-12-01' }),
      'expire_date 2023-12-01 is in the past',
    ],
    ['a symbol without market data', order(US, 'Buy', 1), 'unknown symbol: no market data for AAPL.US yet'],
    [
      'a buy beyond buying power',
      order(HK, 'Buy', 1000, { price: p(10.5) }),
      'insufficient buying power: the order needs 10500 HKD, 10000 available',
    ],
    [
      'a sell of shares not held',
      order(HK, 'Sell', 100),
      'insufficient position: 0 of 700.HK available to sell, 100 requested (short selling is off)',
    ],
  ])('rejects %s', (_, request, reason) => {
    expect(rejection(sim, request)).toBe(reason);
  });

  it('rejects orders outside the market sessions when the session check is on', () => {
    const checked = new Harness({ sessionCheck: true }).bar(minuteBar(HK, '2024-01-02 11:59', 10, 10, 10, 10));
    checked.clock.advanceTo(localTime(HK, '2024-01-02 12:30'));
    expect(rejection(checked, order(HK, 'Buy', 100))).toBe('market closed: HK trades 09:30-12:00, 13:00-16:00 local time');

    checked.clock.advanceTo(localTime(HK, '2024-01-02 13:00'));
    expect(checked.venue.submit(order(HK, 'Buy', 100)).status).toBe('NewStatus');
  });

  it('accepts US orders in extended hours when outside_rth allows it', () => {
    const checked = new Harness({ sessionCheck: true, cash: { USD: '100000' } }).bar(minuteBar(US, '2024-01-02 15:59', 150, 150, 150, 150));
    checked.clock.advanceTo(localTime(US, '2024-01-02 17:00'));

    expect(checked.venue.submit(order(US, 'Buy', 10)).status).toBe('RejectedStatus');
    expect(checked.venue.submit(order(US, 'Buy', 10, { outsideRth: 'ANY_TIME' })).status).toBe('NewStatus');
  });

  it('rejects an order whose commission would need more than 40 decimal places, naming the rate, and fills none', () => {
    // 1,000,000.12345678 shares at 0.000011631853918 slipped 5.123457 bp: a value of 33 places, × a rate of 12.
    const fine = new Harness({
      cash: { USD: '1000000' },
      slippageBps: 5.123457,
      fees: { commissionRate: 0.000123456789 },
      instruments: { [US]: { lotSize: 1, tick: '0.000000000000001', fractionalShares: true } },
    }).bar(dayBar(US, '2024-01-02', 0.000011631853918, 0.000011631853918, 0.000011631853918, 0.000011631853918));
    const reason = rejection(fine, order(US, 'Buy', 1_000_000.12345678));
    expect(reason).toBe(
      'commission at the rate 0.000123456789 of an order value of 11.637814885104890025095393690238628 USD: ' +
        '11.637814885104890025095393690238628 × 0.000123456789 needs 45 decimal places; at most 40 are kept',
    );
    expect(fine.venue.orders({}).filter((one) => one.status !== 'RejectedStatus')).toEqual([]);
  });

  it('rejects everything when the fault plan rejects every order', () => {
    const faulty = new Harness({ faults: { orderRejectRate: 1 } }).bar(D1);
    expect(rejection(faulty, order(HK, 'Buy', 100))).toBe('rejected by the venue (injected fault)');
  });

  it('keeps a rejected order queryable with its history', () => {
    const placed = sim.venue.submit(order(HK, 'Buy', 0, { remark: 'why' }));
    const found = sim.venue.order(placed.orderId);
    expect(found.remark).toBe('why');
    expect(found.history.map((entry) => entry.status)).toEqual(['RejectedStatus']);
  });
});
