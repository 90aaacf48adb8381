import { describe, expect, it } from 'vitest';
import { drawdownSeries, maxDrawdown } from '../../../src/backtest/metrics/drawdown.js';

describe('max drawdown', () => {
  it('finds the deepest fall from a running peak and when it recovered', () => {
    // peaks: 100 → 120 (index 1); 120 → 90 is −25 % (index 3); back to 120 at index 5
    const drawdown = maxDrawdown([100, 120, 100, 90, 110, 120, 115], 100);
    expect(drawdown).toEqual({ depth: 0.25, peakIndex: 1, troughIndex: 3, recoveryIndex: 5 });
  });

  it('keeps the deepest episode, not the latest one', () => {
    // first: 100 → 50 (−50 %), recovered at 100; later 200 → 150 (−25 %)
    const drawdown = maxDrawdown([100, 50, 100, 200, 150], 100);
    expect(drawdown).toMatchObject({ depth: 0.5, peakIndex: 0, troughIndex: 1, recoveryIndex: 2 });
  });

  it('counts a loss on the first bar against the initial cash', () => {
    // 1000 → 990 on the first bar: −1 %; the peak is the initial cash (index −1); never recovered
    expect(maxDrawdown([990, 995], 1000)).toEqual({ depth: 0.01, peakIndex: -1, troughIndex: 0, recoveryIndex: undefined });
  });

  it('reports none for a curve that never falls', () => {
    expect(maxDrawdown([100, 100, 101, 105], 100)).toBeUndefined();
    expect(maxDrawdown([], 100)).toBeUndefined();
  });
});

describe('drawdown series', () => {
  it('is each point below its running peak as a negative fraction', () => {
    // running peak 100, 120, 120, 120, 130 → 0, 0, 90/120 − 1 = −0.25, 108/120 − 1 = −0.1, 0
    expect([...drawdownSeries([100, 120, 90, 108, 130], 100)].map((value) => Number(value.toFixed(12)))).toEqual([0, 0, -0.25, -0.1, 0]);
  });
});
