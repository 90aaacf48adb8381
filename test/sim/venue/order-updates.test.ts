import { describe, expect, it } from 'vitest';
import type { OrderReport } from '../../../src/domain/order.js';
import { p, dayBar, Harness, HK, order } from './fixtures.js';

describe('order updates', () => {
  it('pushes every change synchronously, with the fill quantity and price, the remark and the account', () => {
    const sim = new Harness({ volumeParticipation: 0.1, stockNames: { '700.HK': 'TENCENT' }, accountNo: 'ACC1' }).bar(
      dayBar(HK, '2024-01-02', 10, 11, 9, 10.5),
    );
    const placed = sim.venue.submit(order(HK, 'Buy', 150, { price: p(11), timeInForce: 'GTC', remark: 'cid-42' }));
    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 1000));
    sim.bar(dayBar(HK, '2024-01-04', 10.7, 11, 10.5, 10.8, 1000));

    expect(
      sim.updates.map((update) => [
        update.status,
        update.lastShare?.toFixed(),
        update.lastPrice?.toFixed(),
        update.executedQuantity.toFixed(),
      ]),
    ).toEqual([
      ['NewStatus', undefined, undefined, '0'],
      ['PartialFilledStatus', '100', '10.6', '100'],
      ['FilledStatus', '50', '10.7', '150'],
    ]);
    expect(sim.updates.every((update) => update.remark === 'cid-42' && update.accountNo === 'ACC1' && update.stockName === 'TENCENT')).toBe(
      true,
    );
    expect(sim.updates[2]!.executedPrice!.toFixed()).toBe('10.633333333');
    expect(sim.updates[2]!.lastDone!.toFixed()).toBe('10.7');

    const detail = sim.venue.order(placed.orderId);
    expect(detail.history.map((entry) => [entry.status, entry.quantity.toFixed(), entry.price?.toFixed()])).toEqual([
      ['NewStatus', '150', '11'],
      ['PartialFilledStatus', '100', '10.6'],
      ['FilledStatus', '50', '10.7'],
    ]);
  });

  it('reports each change to a report listener with the values its update carries, in the same order', () => {
    const sim = new Harness({ volumeParticipation: 0.1, accountNo: 'ACC1' }).bar(dayBar(HK, '2024-01-02', 10, 11, 9, 10.5));
    const reports: OrderReport[] = [];
    sim.venue.onOrderReport((report) => reports.push(report));
    sim.venue.submit(order(HK, 'Buy', 150, { price: p(11), timeInForce: 'GTC', remark: 'cid-42' }));
    sim.venue.submit(order(HK, 'Sell', 100, { price: p(10), remark: 'cid-43' }));
    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 1000));
    const resting = sim.venue.submit(order(HK, 'Buy', 100, { price: p(9), timeInForce: 'GTC' }));
    sim.venue.cancel(resting.orderId);
    sim.bar(dayBar(HK, '2024-01-04', 10.7, 11, 10.5, 10.8, 1000));

    const fields = [
      'orderId',
      'remark',
      'status',
      'message',
      'symbol',
      'side',
      'quantity',
      'executedQuantity',
      'executedPrice',
      'updatedAt',
      'lastShare',
      'lastPrice',
    ] as const;
    const picked = (change: OrderReport): unknown[] => fields.map((field) => change[field]);
    expect(reports.length).toBe(sim.updates.length);
    expect(reports.map(picked)).toEqual(sim.updates.map(picked));
    expect(Object.keys(reports[0]!).sort()).toEqual([...fields].sort());
  });

  it('keeps no history when told not to, and changes nothing else an update says', () => {
    const run = (keepHistory: boolean): Harness => {
      const sim = new Harness({ volumeParticipation: 0.1 }, { keepHistory }).bar(dayBar(HK, '2024-01-02', 10, 11, 9, 10.5));
      sim.venue.submit(order(HK, 'Buy', 150, { price: p(11), timeInForce: 'GTC' }));
      sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 1000));
      return sim;
    };
    const kept = run(true);
    const none = run(false);
    const [resting] = none.venue.orders({ statuses: ['PartialFilledStatus'] });
    expect(resting!.history).toEqual([]);
    expect(kept.venue.orders({ statuses: ['PartialFilledStatus'] })[0]!.history.map((entry) => entry.status)).toEqual([
      'NewStatus',
      'PartialFilledStatus',
    ]);
    expect(none.updates).toEqual(kept.updates);
  });

  it('stops calling a listener after it unsubscribes', () => {
    const sim = new Harness().bar(dayBar(HK, '2024-01-02', 10, 11, 9, 10.5));
    const seen: string[] = [];
    const unsubscribe = sim.venue.onOrderUpdate((update) => seen.push(update.status));
    sim.venue.submit(order(HK, 'Buy', 1));
    unsubscribe();
    sim.venue.submit(order(HK, 'Buy', 1));
    expect(seen).toEqual(['NewStatus']);
  });

  it("lists today's orders: those submitted this market day plus any still open", () => {
    const sim = new Harness().bar(dayBar(HK, '2024-01-02', 10, 11, 9, 10.5));
    const old = sim.venue.submit(order(HK, 'Buy', 1));
    const resting = sim.venue.submit(order(HK, 'Buy', 1, { price: p(5), timeInForce: 'GTC' }));
    sim.bar(dayBar(HK, '2024-01-03', 10, 11, 9, 10.5));
    sim.bar(dayBar(HK, '2024-01-04', 10, 11, 9, 10.5));
    const fresh = sim.venue.submit(order(HK, 'Sell', 1, { price: p(20) }));

    expect(sim.venue.orders({ today: true }).map((found) => found.orderId)).toEqual([resting.orderId, fresh.orderId]);
    expect(sim.venue.orders({ side: 'Buy', statuses: ['FilledStatus'] }).map((found) => found.orderId)).toEqual([old.orderId]);
  });
});

describe('listeners acting inside an update', () => {
  it('lets a listener submit on a fill; the new order waits for the next bar', () => {
    const sim = new Harness().bar(dayBar(HK, '2024-01-02', 10, 11, 9, 10.5));
    let follow: string | undefined;
    sim.venue.onOrderUpdate((update) => {
      if (update.status === 'FilledStatus' && update.side === 'Buy') follow = sim.venue.submit(order(HK, 'Sell', 100)).orderId;
    });
    sim.venue.submit(order(HK, 'Buy', 100));

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10, 10.8));
    expect(sim.venue.order(follow!).status).toBe('NewStatus');
    sim.bar(dayBar(HK, '2024-01-04', 10.9, 11, 10.5, 10.7));

    expect(sim.venue.order(follow!).executedPrice!.toFixed()).toBe('10.9');
  });

  it('lets a listener cancel another resting order mid-bar without skipping the rest', () => {
    const sim = new Harness().bar(dayBar(HK, '2024-01-02', 10, 11, 9, 10.5));
    const first = sim.venue.submit(order(HK, 'Buy', 100, { timeInForce: 'GTC' }));
    const second = sim.venue.submit(order(HK, 'Buy', 100, { price: p(1), timeInForce: 'GTC' }));
    const third = sim.venue.submit(order(HK, 'Buy', 100, { timeInForce: 'GTC' }));
    sim.venue.onOrderUpdate((update) => {
      if (update.orderId === first.orderId && update.status === 'FilledStatus') sim.venue.cancel(second.orderId);
    });

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10, 10.8));

    expect([first, second, third].map((placed) => sim.venue.order(placed.orderId).status)).toEqual([
      'FilledStatus',
      'CanceledStatus',
      'FilledStatus',
    ]);
  });

  it('keeps only open orders when asked (as a backtest does), still pushing every change of the finished ones', () => {
    const sim = new Harness({}, { keepFinishedOrders: false }).bar(dayBar(HK, '2024-01-02', 10, 11, 9, 10.5));
    const filled = sim.venue.submit(order(HK, 'Buy', 100));
    const resting = sim.venue.submit(order(HK, 'Buy', 100, { price: p(5), timeInForce: 'GTC' }));
    const rejected = sim.venue.submit(order(HK, 'Sell', 1_000_000, { price: p(10) }));
    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8));

    expect(sim.venue.orders().map((open) => open.orderId)).toEqual([resting.orderId]);
    expect(() => sim.venue.order(filled.orderId)).toThrow(/not found/);
    expect(() => sim.venue.order(rejected.orderId)).toThrow(/not found/);
    expect(sim.updates.filter((update) => update.orderId === filled.orderId).map((update) => update.status)).toEqual([
      'NewStatus',
      'FilledStatus',
    ]);
    expect(sim.updates.find((update) => update.orderId === rejected.orderId)?.status).toBe('RejectedStatus');
    expect(sim.venue.positions()[0]!.quantity.toFixed()).toBe('100');
  });
});
