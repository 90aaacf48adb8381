import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { OrderIdTable, OrderRegister, orderIdOf } from '../../../src/sim/venue/order-register.js';
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

  it('spells every number as "7" and 17 digits, and takes an order by its number as by its id', () => {
    for (const number of [1, 9, 10, 99_999, 123_456_789, 9_999_999_999_999, 10 ** 15])
      expect(orderIdOf(number)).toBe(`7${String(number).padStart(17, '0')}`);
    const byNumber = new OrderRegister();
    const byId = new OrderRegister();
    for (const number of [1, 2, 5, 3, 1_000_000, 2]) {
      byNumber.addNumbered(number, order(orderIdOf(number)));
      byId.add(order(orderIdOf(number)));
    }
    expect([...byNumber.values()].map((record) => record.orderId)).toEqual([...byId.values()].map((record) => record.orderId));
    expect(byNumber.size).toBe(byId.size);
    expect(byNumber.get(orderIdOf(1_000_000))?.orderId).toBe(orderIdOf(1_000_000));
  });

  it('keeps ids of another form and numbers far past the end (a restored snapshot) findable, listed after the numbered ones', () => {
    const register = new OrderRegister();
    const foreign = order('abc-1');
    const afterGap = order(orderIdOf(5));
    const farAway = order(orderIdOf(1_000_000));
    const first = order(orderIdOf(1));
    register.add(foreign);
    register.add(afterGap);
    register.add(farAway);
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
    expect(register.get(orderIdOf(1_000_000))).toBe(farAway);
    expect(register.get('7900719925474099312')).toBeUndefined();
    expect([...register.values()]).toEqual([first, next, afterGap, foreign, farAway]);
    expect(register.size).toBe(5);
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

  it('holds a value for some orders only (the tags of tagged orders): holes read as missing, a value set again replaces it', () => {
    const tags = new OrderIdTable<string>();
    tags.set(orderIdOf(3), 'golden-cross');
    tags.set(orderIdOf(1), 'death-cross');
    tags.set(orderIdOf(3), 'golden-cross');
    tags.set(orderIdOf(5_000), 'far');
    tags.set(orderIdOf(40), 'near');
    tags.set(orderIdOf(5_000), 'far, again');

    expect([1, 2, 3, 40, 41, 5_000].map((number) => tags.get(orderIdOf(number)) ?? null)).toEqual([
      'death-cross',
      null,
      'golden-cross',
      'near',
      null,
      'far, again',
    ]);
    expect(tags.size).toBe(4);
    tags.delete(orderIdOf(3));
    tags.delete(orderIdOf(2));
    expect(tags.get(orderIdOf(3))).toBeUndefined();
    expect(tags.size).toBe(3);
    expect([...tags.values()]).toEqual(['death-cross', 'near', 'far, again']);
  });
});
