import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Money, parseSymbol, type OrderStatus, type OrderUpdate } from '../../src/domain/index.js';
import { OrderTracker, type OrderRecord } from '../../src/execution/order-tracker.js';
import { Price, Quantity } from '../../src/domain/index.js';

const AAPL = parseSymbol('AAPL.US');

function record(quantity: number): OrderRecord {
  return {
    clientOrderId: 'lt-x-1',
    orderId: undefined,
    intentId: 1,
    strategy: 's',
    symbol: AAPL,
    side: 'Buy',
    orderType: 'LO',
    quantity: Quantity.of(quantity),
    price: Price.of(10),
    status: 'NotReported',
    executedQuantity: Quantity.ZERO,
    executedPrice: undefined,
    message: '',
    createdAt: 0,
    updatedAt: 0,
  };
}

// The venue's reports for a sequence of executions (cumulative quantity and average price, like the service).
function reports(total: number, executions: readonly { quantity: number; price: number }[]): OrderUpdate[] {
  let executed = Quantity.ZERO;
  let value = Money.zero('USD');
  const result: OrderUpdate[] = [];
  const base = (status: OrderStatus, time: number, lastShare?: Quantity, lastPrice?: Price): OrderUpdate => ({
    orderId: 'O1',
    status,
    symbol: AAPL,
    stockName: 'Apple',
    side: 'Buy',
    orderType: 'LO',
    quantity: Quantity.of(total),
    executedQuantity: executed,
    price: Price.of(10),
    executedPrice: executed.isZero() ? undefined : Price.average(value, executed),
    triggerPrice: undefined,
    timeInForce: 'Day',
    expireDate: undefined,
    outsideRth: undefined,
    currency: 'USD',
    remark: 'lt-x-1',
    message: '',
    tag: 'Normal',
    triggerStatus: undefined,
    submittedAt: 0,
    updatedAt: time,
    lastShare,
    lastPrice,
    accountNo: 'A',
  });
  result.push(base('NewStatus', 1));
  executions.forEach((execution, index) => {
    const quantity = Quantity.of(execution.quantity);
    const price = Price.of(execution.price);
    executed = executed.plus(quantity);
    value = value.plus(Money.notional(quantity, price, 'USD'));
    result.push(base(executed.eq(total) ? 'FilledStatus' : 'PartialFilledStatus', index + 2, quantity, price));
  });
  return result;
}

const executionsArbitrary = fc.array(
  fc.record({ quantity: fc.integer({ min: 1, max: 50 }), price: fc.integer({ min: 100, max: 200 }).map((cents) => cents / 10) }),
  { minLength: 1, maxLength: 6 },
);

describe('order tracker', () => {
  it('derives exactly the executed quantity and value from any delivery order, with duplicates', () => {
    fc.assert(
      fc.property(
        executionsArbitrary,
        fc.boolean(),
        fc.func(fc.integer()),
        fc.array(fc.nat(), { maxLength: 6 }),
        (executions, complete, shuffleKey, duplicates) => {
          const executedTotal = executions.reduce((sum, execution) => sum + execution.quantity, 0);
          const all = reports(complete ? executedTotal : executedTotal + 1, executions);
          const delivered = [...all, ...duplicates.map((index) => all[index % all.length]!)].map((report, index) => ({
            report,
            key: shuffleKey(index),
          }));
          delivered.sort((a, b) => a.key - b.key);
          const tracker = new OrderTracker();
          const tracked = record(complete ? executedTotal : executedTotal + 1);
          tracker.add(tracked);

          const fills = delivered.map(({ report }) => tracker.apply(tracked, report).fill).filter((fill) => fill !== undefined);

          const last = all.at(-1)!;
          expect(fills.reduce((sum, fill) => sum.plus(fill.quantity), Quantity.ZERO).toString()).toBe(String(executedTotal));
          const value = (quantity: Quantity, price: Price): Money => Money.notional(quantity, price, 'USD');
          // A fill's price is derived from two averages the venue rounds to 8 places (Price.average), so each fill's
          // value may be off by its quantity × 10^-8: within that bound of the order's value, not beyond.
          const filled = fills.reduce((sum, fill) => sum.plus(value(fill.quantity, fill.price)), Money.zero('USD'));
          const bound = executedTotal * 1e-8 * fills.length;
          expect(Math.abs(filled.minus(value(last.executedQuantity, last.executedPrice!)).toNumber())).toBeLessThanOrEqual(bound);
          expect(new Set(fills.map((fill) => fill.fillId)).size).toBe(fills.length);
          expect(tracked.status).toBe(complete ? 'FilledStatus' : 'PartialFilledStatus');
          expect(tracked.executedQuantity.toFixed()).toBe(String(executedTotal));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matches a report by client order id until it knows the order id, then by order id', () => {
    const tracker = new OrderTracker();
    const tracked = record(10);
    tracker.add(tracked);
    const [accepted] = reports(10, []);

    expect(tracker.match({ orderId: 'O1', remark: 'lt-x-1' })).toBe(tracked);
    tracker.apply(tracked, accepted!);
    expect(tracker.match({ orderId: 'O1', remark: '' })).toBe(tracked);
    expect(tracker.match({ orderId: 'O2', remark: 'other' })).toBeUndefined();
  });

  it('tells what each report changed: the order id bound, the status moved from, the fill; a repeated report changes nothing', () => {
    const tracker = new OrderTracker();
    const tracked = record(10);
    tracker.add(tracked);
    const [accepted, filled] = reports(10, [{ quantity: 10, price: 10 }]);

    expect({ ...tracker.apply(tracked, accepted!) }).toEqual({
      boundOrderId: true,
      from: 'NotReported',
      fill: undefined,
      quantityChanged: false,
    });
    const effect = tracker.apply(tracked, filled!);
    expect(effect.boundOrderId).toBe(false);
    expect(effect.from).toBe('NewStatus');
    expect(effect.fill?.quantity.toFixed()).toBe('10');
    expect({ ...tracker.apply(tracked, filled!) }).toEqual({
      boundOrderId: false,
      from: undefined,
      fill: undefined,
      quantityChanged: false,
    });
  });

  it('stops matching an order once forgotten', () => {
    const tracker = new OrderTracker();
    const tracked = record(10);
    tracker.add(tracked);
    tracker.bindOrderId(tracked, 'O1');

    tracker.forget(tracked);

    expect(tracker.match({ orderId: 'O1', remark: 'lt-x-1' })).toBeUndefined();
    expect(tracker.open()).toEqual([]);
  });

  it('sums the signed quantity still to fill in the open orders of a symbol', () => {
    const tracker = new OrderTracker();
    const bought = record(10);
    bought.executedQuantity = Quantity.of(4);
    const sold: OrderRecord = { ...record(3), clientOrderId: 'lt-x-2', side: 'Sell' };
    const other: OrderRecord = { ...record(7), clientOrderId: 'lt-x-3', symbol: parseSymbol('MSFT.US') };
    const done: OrderRecord = { ...record(5), clientOrderId: 'lt-x-4', status: 'FilledStatus' };
    for (const one of [bought, sold, other, done]) tracker.add(one);

    expect(tracker.workingQuantity(AAPL).toFixed()).toBe('3');
    expect(tracker.workingQuantity(parseSymbol('700.HK')).toFixed()).toBe('0');
  });
});
