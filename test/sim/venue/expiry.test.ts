import { describe, expect, it } from 'vitest';
import { p, dayBar, Harness, HK, localTime, minuteBar, order } from './fixtures.js';

const D1 = dayBar(HK, '2024-01-02', 10, 11, 9, 10.5);
const QUIET = (date: string) => dayBar(HK, date, 10.5, 10.6, 10.4, 10.5);

describe('time in force', () => {
  it('expires a Day order placed after the close at the end of the next market day it meets', () => {
    const sim = new Harness().bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10) }));

    sim.bar(QUIET('2024-01-03'));
    expect(sim.venue.order(placed.orderId).status).toBe('NewStatus');
    sim.bar(QUIET('2024-01-04'));

    const expired = sim.venue.order(placed.orderId);
    expect(expired.status).toBe('ExpiredStatus');
    expect(expired.message).toBe('expired at the end of its market day');
    expect(sim.venue.accountBalance('HKD')[0]!.cashInfos[0]!.frozenCash.toFixed()).toBe('0');
  });

  it('expires a Day order placed during the session at the end of that day', () => {
    const sim = new Harness().bar(minuteBar(HK, '2024-01-02 10:00', 10, 10.1, 9.9, 10));
    sim.clock.advanceTo(localTime(HK, '2024-01-02 10:01'));
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(9) }));

    sim.bar(minuteBar(HK, '2024-01-02 15:59', 10, 10.1, 9.9, 10));
    expect(sim.venue.order(placed.orderId).status).toBe('NewStatus');
    sim.bar(minuteBar(HK, '2024-01-03 09:30', 8.8, 8.9, 8.7, 8.8));

    expect(sim.venue.order(placed.orderId).status).toBe('ExpiredStatus');
    expect(sim.venue.executions()).toHaveLength(0);
  });

  it('keeps a GTD order through its expire date and expires it after', () => {
    const sim = new Harness().bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10), timeInForce: 'GTD', expireDate: '2024-01-04' }));

    sim.bar(QUIET('2024-01-03')).bar(QUIET('2024-01-04'));
    expect(sim.venue.order(placed.orderId).status).toBe('NewStatus');
    sim.bar(QUIET('2024-01-05'));

    expect(sim.venue.order(placed.orderId).status).toBe('ExpiredStatus');
    expect(sim.venue.order(placed.orderId).message).toBe('expired after 2024-01-04');
  });

  it('keeps a GTC order working across days until it fills', () => {
    const sim = new Harness().bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10), timeInForce: 'GTC' }));

    for (const date of ['2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08']) sim.bar(QUIET(date));
    expect(sim.venue.order(placed.orderId).status).toBe('NewStatus');
    sim.bar(dayBar(HK, '2024-01-09', 10.2, 10.3, 9.9, 10));

    expect(sim.venue.order(placed.orderId).status).toBe('FilledStatus');
  });

  it('expires a partially filled Day order with its fills kept', () => {
    const sim = new Harness({ volumeParticipation: 0.1 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100));

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 300));
    sim.bar(dayBar(HK, '2024-01-04', 10.6, 11, 10.5, 10.8, 300));

    const expired = sim.venue.order(placed.orderId);
    expect(expired.status).toBe('ExpiredStatus');
    expect(expired.executedQuantity.toFixed()).toBe('30');
    expect(sim.venue.positions()[0]!.quantity.toFixed()).toBe('30');
  });
});
