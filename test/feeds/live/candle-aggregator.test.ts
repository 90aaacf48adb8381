import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../../src/domain/candle.js';
import { localDate, startOfLocalDay } from '../../../src/domain/time-zone.js';
import { CandleAggregator } from '../../../src/feeds/live/candle-aggregator.js';
import { HK, quoteOf } from '../../support/socket/quote-fixtures.js';
import { ticksOf } from '../../support/socket/candle-ticks.js';

const ZONE = 'Asia/Hong_Kong';
const hkDay = (time: number): string => localDate(time, ZONE);

function aggregate(aggregator: CandleAggregator, ticks: ReturnType<typeof ticksOf>): Candle[] {
  const bars: Candle[] = [];
  for (const tick of ticks) {
    const closed = aggregator.add(tick);
    if (closed !== undefined) bars.push(closed);
  }
  const last = aggregator.close();
  if (last !== undefined) bars.push(last);
  return bars;
}

const price = fc.integer({ min: 1, max: 100_000 }).map((cents) => cents / 100);
const barShape = fc.tuple(price, price, price, price, fc.integer({ min: 0, max: 5_000_000 })).map(([a, b, c, d, volume]) => {
  const high = Math.max(a, b, c, d);
  const low = Math.min(a, b, c, d);
  return { open: b, close: c, high, low, volume };
});

describe('candle aggregation from quote ticks', () => {
  it('re-aggregates ticks replayed from 1-minute candles to exactly those candles', () => {
    const sessionOpen = startOfLocalDay('2000-01-04', ZONE) + (9 * 60 + 30) * 60_000;
    fc.assert(
      fc.property(fc.array(barShape, { minLength: 1, maxLength: 60 }), fc.boolean(), (shapes, lowFirst) => {
        const candles: Candle[] = shapes.map((shape, index) => ({
          symbol: HK,
          period: '1m',
          time: sessionOpen + index * 60_000,
          ...shape,
        }));
        const bars = aggregate(
          new CandleAggregator(HK, '1m'),
          ticksOf(candles, { lowFirst, offsets: [0, 10_000, 20_000, 59_000] }, 0, hkDay),
        );
        expect(bars.map(({ turnover: _t, ...bar }) => bar)).toEqual(candles);
      }),
      { numRuns: 200 },
    );
  });

  it('re-aggregates ticks replayed from daily candles, restarting the cumulative volume each day', () => {
    fc.assert(
      fc.property(fc.array(barShape, { minLength: 1, maxLength: 30 }), (shapes) => {
        const candles: Candle[] = shapes.map((shape, index) => ({
          symbol: HK,
          period: 'day',
          time: startOfLocalDay(new Date(Date.UTC(2000, 0, 3 + index)).toISOString().slice(0, 10), ZONE),
          ...shape,
        }));
        const bars = aggregate(
          new CandleAggregator(HK, 'day'),
          ticksOf(candles, { offsets: [34_200_000, 36_000_000, 40_000_000, 57_000_000] }, 0, hkDay),
        );
        expect(bars.map(({ turnover: _t, ...bar }) => bar)).toEqual(candles);
      }),
      { numRuns: 100 },
    );
  });

  it("builds week bars from daily ticks with every day's volume (the day's cumulative volume restarts inside the bar)", () => {
    fc.assert(
      fc.property(fc.array(barShape, { minLength: 5, maxLength: 30 }), (shapes) => {
        // Weekdays from Monday 2000-01-03: the ticks of each day bar, aggregated into week bars.
        const days: Candle[] = [];
        for (let offset = 0; days.length < shapes.length; offset += 1) {
          const date = new Date(Date.UTC(2000, 0, 3 + offset));
          if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
          days.push({ symbol: HK, period: 'day', time: startOfLocalDay(date.toISOString().slice(0, 10), ZONE), ...shapes[days.length]! });
        }
        const weeks = aggregate(
          new CandleAggregator(HK, 'week'),
          ticksOf(days, { offsets: [34_200_000, 36_000_000, 40_000_000, 57_000_000] }, 0, hkDay),
        );
        const expected = new Map<number, number>();
        for (const day of days) {
          const monday = day.time - ((new Date(day.time + 8 * 3_600_000).getUTCDay() + 6) % 7) * 86_400_000;
          expected.set(monday, (expected.get(monday) ?? 0) + day.volume);
        }
        expect(weeks.map((week) => [week.time, week.volume])).toEqual([...expected]);
      }),
      { numRuns: 100 },
    );
  });

  it('counts a mid-day first tick from its own volume, not the whole day before it', () => {
    const aggregator = new CandleAggregator(HK, '1m');
    const start = startOfLocalDay('2024-01-02', ZONE) + 10 * 3_600_000;
    aggregator.add({ ...quoteOf(HK, '10', start + 5_000, 1_000_000), currentVolume: 300 });
    aggregator.add(quoteOf(HK, '10.2', start + 30_000, 1_000_500));
    expect(aggregator.close()).toMatchObject({ time: start, open: 10, high: 10.2, close: 10.2, volume: 800 });
  });

  it('ignores a late tick of a bar already closed', () => {
    const aggregator = new CandleAggregator(HK, '1m');
    const start = startOfLocalDay('2024-01-02', ZONE) + 10 * 3_600_000;
    aggregator.add(quoteOf(HK, '10', start, 100));
    expect(aggregator.add(quoteOf(HK, '11', start + 60_000, 200))).toMatchObject({ time: start, close: 10 });
    expect(aggregator.add(quoteOf(HK, '9', start + 59_000, 250))).toBeUndefined();
    expect(aggregator.close()).toMatchObject({ time: start + 60_000, low: 11, volume: 100 });
  });
});
