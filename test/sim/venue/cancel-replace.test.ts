import { describe, expect, it } from 'vitest';
import { VenueError } from '../../../src/sim/venue/index.js';
import { p, q, dayBar, Harness, HK, order } from './fixtures.js';

const D1 = dayBar(HK, '2024-01-02', 10, 11, 9, 10.5, 1000);
const frozen = (sim: Harness): string => sim.venue.accountBalance('HKD')[0]!.cashInfos[0]!.frozenCash.toFixed();

function errorOf(action: () => unknown): VenueError {
  try {
    action();
  } catch (error) {
    if (error instanceof VenueError) return error;
    throw error;
  }
  throw new Error('expected a VenueError');
}

describe('cancel', () => {
  it('cancels an open order and releases the cash it held back', () => {
    const sim = new Harness({ fees: { commissionRate: 0.001 } }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10), timeInForce: 'GTC' }));
    expect(frozen(sim)).toBe('1001');

    const cancelled = sim.venue.cancel(placed.orderId);

    expect(cancelled.status).toBe('CanceledStatus');
    expect(frozen(sim)).toBe('0');
    expect(sim.updates.at(-1)!.status).toBe('CanceledStatus');
  });

  it('reports PartialWithdrawal when a partially filled order is cancelled', () => {
    const sim = new Harness({ volumeParticipation: 0.1 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { timeInForce: 'GTC' }));
    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 300));

    expect(sim.venue.cancel(placed.orderId).status).toBe('PartialWithdrawal');
    expect(sim.venue.positions()[0]!.quantity.toFixed()).toBe('30');
  });

  it('refuses to cancel an unknown or finished order', () => {
    const sim = new Harness().bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100));
    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8));

    expect(errorOf(() => sim.venue.cancel('nope')).code).toBe('ORDER_NOT_FOUND');
    expect(errorOf(() => sim.venue.cancel(placed.orderId)).code).toBe('ORDER_CLOSED');
  });
});

describe('replace', () => {
  it('moves a limit order to a new price and quantity, re-reserving cash', () => {
    const sim = new Harness().bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10), timeInForce: 'GTC', remark: 'client-1' }));

    const replaced = sim.venue.replace(placed.orderId, { quantity: q(200), price: p(10.3) });
    expect(replaced.status).toBe('ReplacedStatus');
    expect(replaced.remark).toBe('client-1');
    expect(frozen(sim)).toBe('2060');

    sim.bar(dayBar(HK, '2024-01-03', 10.6, 10.7, 10.25, 10.5));
    const filled = sim.venue.order(placed.orderId);
    expect(filled.executedQuantity.toFixed()).toBe('200');
    expect(filled.executedPrice!.toFixed()).toBe('10.3');
  });

  it('replaces a partially filled order: the new quantity is the total, fills are kept', () => {
    const sim = new Harness({ volumeParticipation: 0.1 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 120, { price: p(11), timeInForce: 'GTC' }));
    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 500));
    expect(sim.venue.order(placed.orderId).executedQuantity.toFixed()).toBe('50');

    const replaced = sim.venue.replace(placed.orderId, { quantity: q(80) });
    expect(replaced.status).toBe('ReplacedStatus');
    expect(replaced.executedQuantity.toFixed()).toBe('50');
    expect(frozen(sim)).toBe('330');

    sim.bar(dayBar(HK, '2024-01-04', 10.8, 11, 10.7, 10.9, 500));
    const filled = sim.venue.order(placed.orderId);
    expect(filled.status).toBe('FilledStatus');
    expect(filled.executedQuantity.toFixed()).toBe('80');
    expect(sim.venue.positions()[0]!.quantity.toFixed()).toBe('80');
  });

  it('refuses a quantity not above what has executed', () => {
    const sim = new Harness({ volumeParticipation: 0.1 }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 120, { price: p(11), timeInForce: 'GTC' }));
    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.5, 10.8, 500));

    const error = errorOf(() => sim.venue.replace(placed.orderId, { quantity: q(50) }));
    expect(error.code).toBe('INVALID_REPLACEMENT');
    expect(error.message).toContain('must exceed the executed quantity 50');
  });

  it('refuses a replacement the account cannot pay for and leaves the order as it was', () => {
    const sim = new Harness({ cash: { HKD: '2000' } }).bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10), timeInForce: 'GTC' }));

    const error = errorOf(() => sim.venue.replace(placed.orderId, { quantity: q(300) }));

    expect(error.code).toBe('INSUFFICIENT_BUYING_POWER');
    const unchanged = sim.venue.order(placed.orderId);
    expect(unchanged.quantity.toFixed()).toBe('100');
    expect(unchanged.status).toBe('NewStatus');
    expect(frozen(sim)).toBe('1000');
  });

  it('refuses a bad price and a finished order', () => {
    const sim = new Harness().bar(D1);
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { price: p(10), timeInForce: 'GTC' }));
    expect(errorOf(() => sim.venue.replace(placed.orderId, { quantity: q(100), price: p(-1) })).code).toBe('INVALID_REPLACEMENT');
    sim.venue.cancel(placed.orderId);
    expect(errorOf(() => sim.venue.replace(placed.orderId, { quantity: q(100) })).code).toBe('ORDER_CLOSED');
  });
});
