import { describe, expect, it } from 'vitest';
import type { Venue } from '../../../src/sim/venue/index.js';
import { p, dayBar, Harness, HK, order, US } from './fixtures.js';

const SETTINGS = {
  cash: { HKD: '100000', USD: '20000' },
  fees: 'by-market',
  volumeParticipation: 0.1,
  faults: { partialFillRate: 0.5 },
  seed: 3,
} as const;

/** A venue with fills, a partly filled order, resting orders in two currencies and a rejection. */
function busyVenue(): Harness {
  const sim = new Harness(SETTINGS)
    .bar(dayBar(HK, '2024-01-02', 10, 11, 9, 10.5, 5000))
    .bar(dayBar(US, '2024-01-02', 150, 151, 149, 150, 5000));
  sim.venue.submit(order(HK, 'Buy', 1000, { timeInForce: 'GTC', remark: 'partly' }));
  sim.venue.submit(order(US, 'Buy', 10, { price: p(140), timeInForce: 'GTC' }));
  sim.venue.submit(order(HK, 'Sell', 5));
  sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10.2, 10.8, 3000));
  sim.venue.submit(order(HK, 'Sell', 100, { orderType: 'MIT', triggerPrice: p(9.5), timeInForce: 'GTC' }));
  return sim;
}

function restored(from: Harness): Harness {
  const copy = new Harness(SETTINGS);
  copy.clock.advanceTo(from.clock.now());
  copy.venue.restore(JSON.parse(JSON.stringify(from.venue.snapshot())));
  return copy;
}

const state = (venue: Venue) =>
  JSON.parse(
    JSON.stringify({ orders: venue.orders(), balances: venue.accountBalance(), positions: venue.positions(), fills: venue.executions() }),
  );

describe('snapshot and restore', () => {
  it('round-trips the whole venue state through JSON', () => {
    const original = busyVenue();
    const copy = restored(original);

    expect(state(copy.venue)).toEqual(state(original.venue));
    expect(copy.venue.snapshot()).toEqual(original.venue.snapshot());
    expect(copy.venue.equityEstimate('HKD')).toBeCloseTo(original.venue.equityEstimate('HKD'), 9);
  });

  it('continues exactly as the original would: same fills, same fault draws, same order ids', () => {
    const original = busyVenue();
    const copy = restored(original);
    const next = [dayBar(HK, '2024-01-04', 10.4, 10.5, 9.4, 9.6, 3000), dayBar(US, '2024-01-04', 141, 142, 139, 140, 3000)];

    for (const sim of [original, copy]) {
      for (const bar of next) sim.bar(bar);
      sim.venue.submit(order(HK, 'Buy', 10));
    }

    expect(state(copy.venue)).toEqual(state(original.venue));
    expect(copy.updates.map((update) => [update.orderId, update.status, update.lastShare?.toFixed()])).toEqual(
      original.updates.slice(-copy.updates.length).map((update) => [update.orderId, update.status, update.lastShare?.toFixed()]),
    );
  });

  it('refuses a snapshot with unknown or missing fields', () => {
    const snapshot = busyVenue().venue.snapshot() as unknown as Record<string, unknown>;
    expect(() => new Harness().venue.restore({ ...snapshot, extra: 1 })).toThrow('Unrecognized key: "extra"');
    expect(() => new Harness().venue.restore({ ...snapshot, ledgers: undefined })).toThrow('ledgers');
  });
});
