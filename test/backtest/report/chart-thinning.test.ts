// A long run's report draws at most CHART_POINTS candles per symbol and points of the equity curve, keeping
// what the eye looks for: each joined candle's open, extremes and close, the curve's highs, lows and deepest
// drawdowns, and every fill on the candle it happened in.
import { describe, expect, it } from 'vitest';
import { buildChartData } from '../../../src/backtest/report/chart-data.js';
import { barsPerCandle, CHART_POINTS, curvePoints, joinedBars } from '../../../src/backtest/report/chart-thinning.js';
import { buildResult } from '../../../src/backtest/report/result-builder.js';
import { drawdownSeries } from '../../../src/backtest/metrics/drawdown.js';
import { randomWalkBars, simulateRun, SPY } from '../../support/backtest/fixtures.js';

describe('chart thinning', () => {
  it('joins bars into candles keeping the first open, the extremes and the last close', () => {
    const bars = {
      time: [1, 2, 3, 4, 5],
      open: [10, 11, 9, 12, 13],
      high: [12, 15, 10, 13, 14],
      low: [9, 10, 7, 11, 12],
      close: [11, 9, 10, 12, 13.5],
    };
    expect(joinedBars(bars, 2)).toEqual({ time: [1, 3, 5], open: [10, 9, 13], high: [15, 13, 14], low: [9, 7, 12], close: [9, 12, 13.5] });
    expect(joinedBars(bars, 1)).toBe(bars);
    expect([barsPerCandle(CHART_POINTS), barsPerCandle(CHART_POINTS + 1), barsPerCandle(1_000_000)]).toEqual([1, 2, 50]);
  });

  it("keeps every point of a short curve, and each stretch's first, highest, lowest and deepest of a long one", () => {
    expect(curvePoints([1, 3, 2], [0, 0, -0.33])).toEqual([0, 1, 2]);
    const count = 100_003;
    const equity = Array.from({ length: count }, (_, index) => 1_000 + 100 * Math.sin(index / 777) + (index % 13));
    equity[40_001] = 5_000;
    equity[70_007] = 10;
    const drawdown = drawdownSeries(equity, 1_000);
    const kept = curvePoints(equity, drawdown);
    expect(kept.length).toBeLessThanOrEqual(CHART_POINTS);
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
    expect(new Set(kept).size).toBe(kept.length);
    expect(kept).toContain(40_001);
    expect(kept).toContain(70_007);
    expect(kept[0]).toBe(0);
    expect(kept[kept.length - 1]).toBe(count - 1);
    expect(Math.max(...kept.map((index) => equity[index]!))).toBe(Math.max(...equity));
    expect(Math.min(...kept.map((index) => drawdown[index]!))).toBe(Math.min(...drawdown));
  });

  it("draws a long run's candles joined, its fills on the candle they happened in, and says how many points the curve has", () => {
    const bars = randomWalkBars(45_000, { seed: 7 });
    const record = simulateRun(new Map([[SPY, bars]]), [
      { bar: 10, side: 'Buy', quantity: 10 },
      { bar: 11, side: 'Buy', quantity: 5 },
      { bar: 12, side: 'Sell', quantity: 15 },
      { bar: 30_000, side: 'Buy', quantity: 1 },
    ]);
    const chart = buildChartData(record, buildResult(record));
    const [series] = chart.symbols;
    expect(series!.group).toBe(3);
    expect(series!.time.length).toBe(15_000);
    let at = 0;
    const times = series!.time.map((delta) => (at += delta));
    // Bars 9–11 are candle 3: its two buys are one marker; bar 12 begins candle 4.
    expect(series!.fills.map(([time, side, label]) => [times.indexOf(time), side, label])).toEqual([
      [3, 'B', '×2'],
      [4, 'S', '15'],
      [10_000, 'B', '1'],
    ]);
    expect(chart.equity.of).toBe(45_000);
    expect(chart.equity.value.length).toBeLessThanOrEqual(CHART_POINTS);
  });
});
