import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { OrderRegister, orderIdOf } from '../../../src/sim/venue/order-register.js';
import { newOrderRecord, type OrderRecord } from '../../../src/sim/venue/orders.js';
import { Quantity } from '../../../src/domain/index.js';

function order(orderId: string): OrderRecord {
  return newOrderRecord(
    orderId,
    { symbol: parseSymbol('AAPL.US'), side: 'Buy', orderType: 'MO', quantity: Quantity.of(1), timeInForce: 'Day' },
    0,
  );
}

describe('order register', () => {
  it("names the venue's orders after their sequence number and finds them by that id", () => {
    const register = new OrderRegister();
    const first = order(orderIdOf(1));
    const second = order(orderIdOf(2));
    register.add(first);
    register.add(second);

    expect(orderIdOf(2)).toBe('700000000000000002');
    expect(register.get('700000000000000002')).toBe(second);
    expect(register.get('700000000000000001')).toBe(first);
    expect(register.get('700000000000000003')).toBeUndefined();
    expect(register.size).toBe(2);
  });

  it('keeps ids of another form and numbers past a gap (a restored snapshot) findable, listed after the numbered ones', () => {
    const register = new OrderRegister();
    const foreign = order('abc-1');
    const afterGap = order(orderIdOf(5));
    const first = order(orderIdOf(1));
    register.add(foreign);
    register.add(afterGap);
    register.add(first);
    const next = order(orderIdOf(2));
    register.add(next);
    // Eighteen characters that are not "7" and 17 digits: ids of another form, never read as a number.
    const lookalikes = ['70000000000000000x', '800000000000000003', '7-0000000000000003'].map((id) => order(id));
    for (const lookalike of lookalikes) register.add(lookalike);

    expect(lookalikes.map((lookalike) => register.get(lookalike.orderId))).toEqual(lookalikes);
    expect(register.get(orderIdOf(3))).toBeUndefined();
    for (const lookalike of lookalikes) register.delete(lookalike.orderId);
    expect(register.get('abc-1')).toBe(foreign);
    expect(register.get(orderIdOf(5))).toBe(afterGap);
    expect(register.get('7900719925474099312')).toBeUndefined();
    expect([...register.values()]).toEqual([first, next, foreign, afterGap]);
    expect(register.size).toBe(4);
  });

  it('forgets an order: by number or by an id of another form, once', () => {
    const register = new OrderRegister();
    const first = order(orderIdOf(1));
    const foreign = order('abc-1');
    register.add(first);
    register.add(foreign);

    register.delete(orderIdOf(1));
    register.delete('abc-1');
    register.delete('abc-1');
    register.delete(orderIdOf(7));

    expect(register.get(orderIdOf(1))).toBeUndefined();
    expect(register.get('abc-1')).toBeUndefined();
    expect(register.size).toBe(0);
    expect([...register.values()]).toEqual([]);
  });
});
