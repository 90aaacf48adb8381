import { describe, expect, it } from 'vitest';
import type { Candle } from '../../../src/domain/candle.js';
import { aggregateCandles, canAggregate } from '../../../src/sim/server/market/aggregate.js';
import { MarketDays } from '../../../src/sim/venue/market-days.js';
import { HK, localInstant, minuteCandles, US } from '../../support/sim/candles.js';

const daysOf = (market: 'HK' | 'US'): MarketDays => new MarketDays(market);

describe('candle aggregation', () => {
  it('builds 5-minute bars counted from the session open, with exact OHLCV', () => {
    const minutes = minuteCandles(HK, ['2024-01-02']);
    const bars = aggregateCandles(minutes, '1m', '5m', daysOf('HK'))!;
    expect(bars).toHaveLength(6);
    const firstFive = minutes.slice(0, 5);
    expect(bars[0]).toEqual({
      symbol: HK,
      period: '5m',
      time: localInstant(HK, '2024-01-02', 9, 30),
      open: firstFive[0]!.open,
      high: Math.max(...firstFive.map((bar) => bar.high)),
      low: Math.min(...firstFive.map((bar) => bar.low)),
      close: firstFive[4]!.close,
      volume: 50_000,
    });
    expect(bars[1]!.time).toBe(localInstant(HK, '2024-01-02', 9, 35));
  });

  it('builds hour bars as the live feed does: cut at the lunch break, the afternoon counted from its own open', () => {
    const morning = Array.from({ length: 150 }, (_, minute) => 9 * 60 + 30 + minute);
    const afternoon = Array.from({ length: 180 }, (_, minute) => 13 * 60 + minute);
    const minutes: Candle[] = [...morning, ...afternoon].map((minuteOfDay) => ({
      symbol: HK,
      period: '1m',
      time: localInstant(HK, '2024-01-08', Math.floor(minuteOfDay / 60), minuteOfDay % 60),
      open: 100,
      high: 101,
      low: 99,
      close: 100,
      volume: 100,
    }));
    const hours = aggregateCandles(minutes, '1m', '60m', daysOf('HK'))!;
    expect(hours.map((bar) => [bar.time, bar.volume])).toEqual([
      [localInstant(HK, '2024-01-08', 9, 30), 6_000],
      [localInstant(HK, '2024-01-08', 10, 30), 6_000],
      [localInstant(HK, '2024-01-08', 11, 30), 3_000],
      [localInstant(HK, '2024-01-08', 13, 0), 6_000],
      [localInstant(HK, '2024-01-08', 14, 0), 6_000],
      [localInstant(HK, '2024-01-08', 15, 0), 6_000],
    ]);
  });

  it('builds day bars starting at local midnight, and weeks and months from days', () => {
    const days = aggregateCandles(minuteCandles(US), '1m', 'day', daysOf('US'))!;
    expect(days.map((bar) => bar.time)).toEqual(['2024-01-02', '2024-01-03', '2024-01-04'].map((date) => localInstant(US, date, 0, 0)));
    const weeks = aggregateCandles(days, 'day', 'week', daysOf('US'))!;
    expect(weeks).toHaveLength(1);
    expect(weeks[0]!.volume).toBe(days.reduce((sum, bar) => sum + bar.volume, 0));
    const spanning: Candle[] = ['2024-01-31', '2024-02-01'].map((date) => ({ ...days[0]!, time: localInstant(US, date, 0, 0) }));
    expect(aggregateCandles(spanning, 'day', 'month', daysOf('US'))).toHaveLength(2);
  });

  it('refuses what the data cannot build', () => {
    expect(canAggregate('3m', '5m')).toBe(false);
    expect(canAggregate('day', '60m')).toBe(false);
    expect(canAggregate('week', 'month')).toBe(false);
    expect(aggregateCandles([], 'day', '1m', daysOf('HK'))).toBeUndefined();
    expect(canAggregate('1m', 'year')).toBe(true);
  });
});
