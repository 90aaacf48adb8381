import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../../src/domain/candle.js';
import { mergeByTime } from '../../../src/feeds/history/merge.js';

describe('mergeByTime', () => {
  it('orders every bar of every series by time, ties in series order, each series keeping its own order', () => {
    const series = fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 25 }), { maxLength: 9 });
    fc.assert(
      fc.property(series, (timesPerSeries) => {
        const input = timesPerSeries.map((times, seriesIndex) =>
          [...times].sort((a, b) => a - b).map((time, position) => ({ time, seriesIndex, position }) as unknown as Candle),
        );
        const merged = mergeByTime(input) as unknown as { time: number; seriesIndex: number; position: number }[];
        expect(merged).toHaveLength(input.reduce((sum, list) => sum + list.length, 0));
        for (let index = 1; index < merged.length; index += 1) {
          const [a, b] = [merged[index - 1]!, merged[index]!];
          expect(
            a.time < b.time ||
              (a.time === b.time && (a.seriesIndex < b.seriesIndex || (a.seriesIndex === b.seriesIndex && a.position < b.position))),
          ).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
