import { describe, expect, it } from 'vitest';
import { barReturns, perBarRate, sharpeRatio, sortinoRatio } from '../../../src/backtest/metrics/returns.js';

describe('bar returns', () => {
  it('measures the first bar against the initial cash and each later bar against the one before', () => {
    // 110/100 − 1 = 0.1, 99/110 − 1 = −0.1, 108.9/99 − 1 = 0.1
    const returns = barReturns([110, 99, 108.9], 100);
    expect([...returns].map((value) => Number(value.toFixed(12)))).toEqual([0.1, -0.1, 0.1]);
  });

  it('counts a loss as a loss once equity is below zero', () => {
    // 100 → 50: −0.5; 50 → −50: −2; −50 → −100: 50 more lost on 50 owed, −1 (−100 / −50 − 1 would say +1);
    // −100 → −50: +0.5
    expect([...barReturns([50, -50, -100, -50], 100)]).toEqual([-0.5, -2, -1, 0.5]);
  });
});

describe('sharpe and sortino', () => {
  const returns = Float64Array.of(0.1, -0.1, 0.1);

  it('annualises the mean over the sample standard deviation', () => {
    // mean = 0.1/3; deviations 1/15, −2/15, 1/15 → Σ² = 6/225, / (n − 1) = 1/75 → sd = 1/√75
    // mean/sd = √75/30 = 1/√12; × √252 = √21 = 4.58257569…
    expect(sharpeRatio(returns, 252)).toBeCloseTo(Math.sqrt(21), 10);
  });

  it('subtracts the per-bar risk-free rate compounded from the annual one', () => {
    // 4 bars a year at 4 %: per bar 1.04^(1/4) − 1 = 0.00985341…; (1/30 − 0.00985341)/(1/√75) × √4 = 0.40668…
    const riskFree = 1.04 ** 0.25 - 1;
    expect(perBarRate(0.04, 4)).toBeCloseTo(0.0098534065, 9);
    expect(sharpeRatio(returns, 4, 0.04)).toBeCloseTo((1 / 30 - riskFree) * Math.sqrt(75) * 2, 10);
    expect(sharpeRatio(returns, 4, 0.04)).toBeCloseTo(0.40668, 4);
  });

  it('divides by the downside deviation over all bars for sortino', () => {
    // only −0.1 is below 0: √(0.01/3) = 0.057735…; (1/30)/0.057735 = 1/√3; × √252 = √84 = 9.16515…
    expect(sortinoRatio(returns, 252)).toBeCloseTo(Math.sqrt(84), 10);
  });

  it('is null for a flat curve instead of dividing by zero', () => {
    const flat = barReturns([100, 100, 100, 100], 100);
    expect(sharpeRatio(flat, 252)).toBeNull();
    expect(sortinoRatio(flat, 252)).toBeNull();
  });

  it('is null for a steady climb for sortino only (no losing bar), but sharpe needs variation too', () => {
    const rising = barReturns([101, 103, 104], 100);
    expect(sortinoRatio(rising, 252)).toBeNull();
    expect(sharpeRatio(rising, 252)).toBeGreaterThan(0);
  });

  it('is negative for an account that goes below zero and keeps losing', () => {
    // 100 → 90 → 50 → −10 → −60 → −150 → −300: every bar a loss
    const returns = barReturns([90, 50, -10, -60, -150, -300], 100);
    expect(sharpeRatio(returns, 252)).toBeLessThan(0);
    expect(sortinoRatio(returns, 252)).toBeLessThan(0);
  });

  it('is null with a single return', () => {
    expect(sharpeRatio(Float64Array.of(0.05), 252)).toBeNull();
    expect(sortinoRatio(Float64Array.of(-0.05), 252)).toBeNull();
  });
});
