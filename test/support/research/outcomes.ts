import type { TrialOutcome } from '../../../src/research/trial.js';

/** A made-up finished trial: params of each kind, metrics with nulls, ∞ and a date, 4 return blocks. */
export function syntheticOutcome(index: number, overrides: Record<string, unknown> = {}): TrialOutcome {
  const blocks = 4;
  return {
    index,
    params: { fast: index % 7, slow: 20 + index, mode: index % 2 === 0 ? 'close' : 'open', short: index % 3 === 0 },
    metrics: {
      bars: 500,
      closedTrades: index % 5,
      sharpe: index % 4 === 0 ? null : Math.sin(index) * 2,
      maxDrawdown: (index % 10) / 40,
      profitFactor: index === 3 ? Number.POSITIVE_INFINITY : 1 + index / 100,
      maxDrawdownPeak: `2020-01-0${1 + (index % 3)}T00:00:00-05:00`,
      failure: null,
      ...overrides,
    } as unknown as TrialOutcome['metrics'],
    stats: {
      count: 100,
      mean: index / 1e4,
      std: 0.01 + index / 1e5,
      skewness: -0.1 * index,
      kurtosis: 3 + index / 10,
      blockSums: Array.from({ length: blocks }, (_, block) => (index - block) / 1e3 + 0.1 / 3),
      blockSquares: Array.from({ length: blocks }, (_, block) => (index * block) / 1e6 + 1e-7 / 3),
    },
  };
}
