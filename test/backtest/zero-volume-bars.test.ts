import { describe, expect, it } from 'vitest';
import { backtestData } from '../../src/backtest/data.js';
import { zeroVolumeBars } from '../../src/backtest/zero-volume-bars.js';
import { parseSymbol } from '../../src/domain/symbol.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';

function series(symbol: string, volumes: readonly number[]) {
  const candles = dailyCandles(
    symbol,
    volumes.map(() => 10),
  ).map((candle, index) => ({ ...candle, volume: volumes[index]! }));
  return { symbol: parseSymbol(symbol), period: 'day' as const, source: 'test', candles };
}

describe('day bars of volume 0', () => {
  it('are counted where a series also has bars with volume, from the first of them', () => {
    const data = backtestData([series('A.US', [100, 0, 100, 0]), series('B.US', [0, 0]), series('C.US', [5, 6])]);

    const found = zeroVolumeBars(data.series);

    expect(found.map((one) => [one.series.symbol, one.count, one.first])).toEqual([['A.US', 2, data.series[0]!.columns.time[1]]]);
  });
});
