import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/domain/errors.js';
import { FaultInjector, NO_FAULTS, parseFaultPlan } from '../../../src/sim/venue/index.js';
import { dayBar, Harness, HK, order } from './fixtures.js';

const draws = (injector: FaultInjector, count: number, draw: (injector: FaultInjector) => unknown): unknown[] =>
  Array.from({ length: count }, () => draw(injector));

describe('fault plan', () => {
  it('is all off by default', () => {
    const injector = new FaultInjector(NO_FAULTS, 1);
    expect(
      draws(injector, 100, (f) => [
        f.dropPush(),
        f.reorderPush(),
        f.httpFailure(),
        f.dropSocket(1000),
        f.rejectOrder(),
        f.partialFillFraction(),
      ])
        .flat()
        .filter(Boolean),
    ).toEqual([]);
    expect(injector.latencyMs()).toBe(0);
  });

  it('rejects unknown keys and bad values, reporting every problem at once', () => {
    let error: unknown;
    try {
      parseFaultPlan({ pushDropRate: 2, latency: 5, socketDropAfterPushes: 0 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    const message = (error as Error).message;
    expect(message).toContain('pushDropRate');
    expect(message).toContain('socketDropAfterPushes');
    expect(message).toContain('"latency"');
  });

  it('refuses HTTP failure rates that add up to more than one', () => {
    expect(() => parseFaultPlan({ http5xxRate: 0.7, http429Rate: 0.5 })).toThrow('http5xxRate + http429Rate must not exceed 1');
  });

  it('repeats the same decisions for the same seed and differs for another seed', () => {
    const plan = parseFaultPlan({ pushDropRate: 0.5 });
    const sequence = (seed: number) => draws(new FaultInjector(plan, seed), 64, (f) => f.dropPush());
    expect(sequence(7)).toEqual(sequence(7));
    expect(sequence(7)).not.toEqual(sequence(8));
  });

  it('keeps each knob on its own stream, so switching one on does not shift another', () => {
    const alone = draws(new FaultInjector(parseFaultPlan({ pushDropRate: 0.5 }), 3), 32, (f) => f.dropPush());
    const together = draws(new FaultInjector(parseFaultPlan({ pushDropRate: 0.5, http5xxRate: 0.5 }), 3), 32, (f) => {
      f.httpFailure();
      return f.dropPush();
    });
    expect(together).toEqual(alone);
  });

  it('fails HTTP requests at about the configured rates', () => {
    const injector = new FaultInjector(parseFaultPlan({ http5xxRate: 0.3, http429Rate: 0.2 }), 11);
    const outcomes = draws(injector, 10_000, (f) => f.httpFailure());
    const share = (status: unknown) => outcomes.filter((outcome) => outcome === status).length / outcomes.length;
    expect(share(500)).toBeGreaterThan(0.27);
    expect(share(500)).toBeLessThan(0.33);
    expect(share(429)).toBeGreaterThan(0.17);
    expect(share(429)).toBeLessThan(0.23);
  });

  it('drops a socket after the configured number of pushes', () => {
    const injector = new FaultInjector(parseFaultPlan({ socketDropAfterPushes: 3 }), 1);
    expect([1, 2, 3, 4].map((count) => injector.dropSocket(count))).toEqual([false, false, true, true]);
  });

  it('reports latency and push delay as configured', () => {
    const injector = new FaultInjector(parseFaultPlan({ latencyMs: 250, pushDelayMs: 40 }), 1);
    expect([injector.latencyMs(), injector.pushDelayMs()]).toEqual([250, 40]);
  });

  it('forces partial fills in the venue: an order fills in several pieces', () => {
    const sim = new Harness({ faults: { partialFillRate: 1 }, seed: 5 }).bar(dayBar(HK, '2024-01-02', 10, 10, 10, 10));
    const placed = sim.venue.submit(order(HK, 'Buy', 100, { timeInForce: 'GTC' }));
    for (const date of ['2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08', '2024-01-09', '2024-01-10'])
      sim.bar(dayBar(HK, date, 10, 10, 10, 10));

    const pieces = sim.fillsOf(placed.orderId).map((fill) => fill.lastShare!.toNumber());
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((piece) => piece < 100)).toBe(true);
    const again = new Harness({ faults: { partialFillRate: 1 }, seed: 5 }).bar(dayBar(HK, '2024-01-02', 10, 10, 10, 10));
    const replay = again.venue.submit(order(HK, 'Buy', 100, { timeInForce: 'GTC' }));
    for (const date of ['2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08', '2024-01-09', '2024-01-10'])
      again.bar(dayBar(HK, date, 10, 10, 10, 10));
    expect(again.fillsOf(replay.orderId).map((fill) => fill.lastShare!.toNumber())).toEqual(pieces);
  });

  it('rejects about the configured share of orders, deterministically for a seed', () => {
    const statuses = (seed: number) => {
      const sim = new Harness({ faults: { orderRejectRate: 0.25 }, seed }).bar(dayBar(HK, '2024-01-02', 10, 10, 10, 10));
      return Array.from({ length: 400 }, () => sim.venue.submit(order(HK, 'Buy', 1)).status);
    };
    const first = statuses(9);
    const rejected = first.filter((status) => status === 'RejectedStatus').length;
    expect(rejected).toBeGreaterThan(70);
    expect(rejected).toBeLessThan(130);
    expect(statuses(9)).toEqual(first);
  });
});
