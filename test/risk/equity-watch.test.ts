import { describe, expect, it } from 'vitest';
import { Money, fromLocal } from '../../src/domain/index.js';
import { FRESH_EQUITY_WATCH, observeEquity, type EquityWatch } from '../../src/risk/index.js';
import { Fixed } from '../../src/domain/index.js';

const ZONE = 'Asia/Hong_Kong';
const at = (day: number, hour: number): number => fromLocal({ year: 2024, month: 3, day, hour, minute: 0, second: 0 }, ZONE);

function observe(points: readonly [number, number][], limits: Parameters<typeof observeEquity>[4]): EquityWatch {
  return points.reduce((watch, [time, value]) => observeEquity(watch, Money.of(value, 'HKD'), time, ZONE, limits), FRESH_EQUITY_WATCH);
}

describe('kill switches', () => {
  const daily = { dailyLossLimit: Fixed.of(1000) };

  it('trips the daily-loss switch once net assets fall the limit below the first figure of the local day', () => {
    expect(
      observe(
        [
          [at(4, 10), 50_000],
          [at(4, 11), 49_100],
        ],
        daily,
      ).dailyTrip,
    ).toBeUndefined();
    expect(
      observe(
        [
          [at(4, 10), 50_000],
          [at(4, 11), 49_000],
        ],
        daily,
      ).dailyTrip?.loss.toFixed(),
    ).toBe('1000');
  });

  it('keeps the daily switch tripped for the day even if net assets recover, and resets it the next local day', () => {
    const tripped = observe(
      [
        [at(4, 10), 50_000],
        [at(4, 11), 48_000],
        [at(4, 15), 51_000],
      ],
      daily,
    );
    expect(tripped.dailyTrip).toBeDefined();

    const nextDay = observeEquity(tripped, Money.of(51_000, 'HKD'), at(5, 9), ZONE, daily);
    expect(nextDay.dailyTrip).toBeUndefined();
    expect(nextDay.dayStart?.toFixed()).toBe('51000');
  });

  it('trips the drawdown switch from the peak and keeps it for the run', () => {
    const limits = { maxDrawdown: Fixed.of(0.2) };
    const watch = observe(
      [
        [at(4, 10), 100_000],
        [at(6, 10), 120_000],
        [at(8, 10), 95_000],
        [at(9, 10), 130_000],
      ],
      limits,
    );

    expect(watch.peak?.toFixed()).toBe('130000');
    expect(watch.drawdownTrip?.reference.toFixed()).toBe('120000');
    expect(watch.drawdownTrip?.loss.toFixed()).toBe('0.2083333333');
  });
});
