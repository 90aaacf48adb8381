// The scatter's ticks: round values 1, 2 or 5 × a power of ten apart, spanning every point.
import { describe, expect, it } from 'vitest';
import { niceTicks } from '../../../src/research/report/ticks.js';

describe('niceTicks', () => {
  it('steps 1, 2 or 5 × a power of ten, from at or below the lowest to at or above the highest', () => {
    expect(niceTicks(0.036, 0.099, 8)).toEqual({ values: [0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1], places: 2 });
    expect(niceTicks(0.00103, 0.00693, 5)).toEqual({ values: [0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007], places: 3 });
    expect(niceTicks(-45.6, 2, 5)).toEqual({ values: [-50, -40, -30, -20, -10, 0, 10], places: 0 });
  });

  it('spreads one value into an axis around it', () => {
    const { values } = niceTicks(0.25, 0.25, 5);
    expect(values[0]).toBeLessThan(0.25);
    expect(values.at(-1)).toBeGreaterThan(0.25);
  });
});
