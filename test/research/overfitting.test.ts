// PBO (CSCV) and the deflated Sharpe ratio against reference values computed independently: the numbers in
// fixtures/overfitting.json were produced by fixtures/reference.py (python3 standard library only:
// statistics.NormalDist for Φ and Φ⁻¹; CSCV Sharpe ratios taken from each split's raw returns, not from
// block sums as here). Regenerate with `python3 test/research/fixtures/reference.py > …/overfitting.json`.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { returnStats } from '../../src/research/return-stats.js';
import { deflatedSharpe } from '../../src/research/stats/deflated-sharpe.js';
import { normalCdf, normalQuantile } from '../../src/research/stats/normal.js';
import {
  type BlockReturns,
  combinations,
  pboOfSplits,
  probabilityOfOverfitting,
  probabilityOfOverfittingBySplit,
} from '../../src/research/stats/pbo.js';
import { sharpeOf, splitInput, splitLogits, splitParts } from '../../src/research/stats/pbo-splits.js';
import { blockBounds } from '../../src/research/return-stats.js';

interface Reference {
  readonly blocks: number;
  readonly returns: number[][];
  readonly pbo: number;
  readonly logits: number[];
  readonly best: number;
  readonly bestSharpe: number;
  readonly skewness: number;
  readonly kurtosis: number;
  readonly expectedMaxSharpe: number;
  readonly deflatedSharpe: number;
  readonly second: { readonly trialSharpes: number[]; readonly expectedMaxSharpe: number; readonly deflatedSharpe: number };
  readonly normal: [number, number][];
  readonly quantiles: [number, number][];
}

const reference = JSON.parse(readFileSync(new URL('./fixtures/overfitting.json', import.meta.url), 'utf8')) as Reference;

describe('the standard normal distribution', () => {
  it('matches Python statistics.NormalDist for the cdf', () => {
    for (const [x, expected] of reference.normal) expect(normalCdf(x)).toBeCloseTo(expected, 14);
  });

  it('matches Python statistics.NormalDist for the quantile', () => {
    for (const [p, expected] of reference.quantiles) expect(normalQuantile(p)).toBeCloseTo(expected, 9);
  });
});

describe.each([
  ['split by split (the reference)', probabilityOfOverfittingBySplit],
  ['walking the splits as a tree', probabilityOfOverfitting],
])('probability of backtest overfitting (CSCV), %s', (_, probabilityOfOverfitting) => {
  const stats = reference.returns.map((returns) => returnStats(returns, reference.blocks));
  const bounds = blockBounds(reference.returns[0]!.length, reference.blocks);
  const counts = bounds.slice(1).map((end, block) => end - bounds[block]!);

  it('gives the reference PBO and every split’s logit', () => {
    const pbo = probabilityOfOverfitting(stats, counts)!;
    expect(pbo.splits).toBe(70);
    expect(pbo.probability).toBeCloseTo(reference.pbo, 12);
    for (const [split, logit] of pbo.logits.entries()) expect(logit).toBeCloseTo(reference.logits[split]!, 9);
  });

  it('is 0 when one trial is best in every half', () => {
    const strong = reference.returns.map((returns, trial) => returns.map((value) => value + (trial === 0 ? 0.05 : 0)));
    const pbo = probabilityOfOverfitting(
      strong.map((returns) => returnStats(returns, reference.blocks)),
      counts,
    )!;
    expect(pbo.probability).toBe(0);
  });

  it('is undefined for a single trial or an odd number of blocks', () => {
    expect(probabilityOfOverfitting(stats.slice(0, 1), counts)).toBeNull();
    expect(probabilityOfOverfitting(stats, [10, 10, 10])).toBeNull();
  });

  it('is undefined when a block holds no return (more blocks than bars) or a half fewer than 2', () => {
    const few = (count: number, blocks: number) => {
      const cut = blockBounds(count, blocks);
      const trials = reference.returns.map((returns) => returnStats(returns.slice(0, count), blocks));
      return probabilityOfOverfitting(
        trials,
        cut.slice(1).map((end, block) => end - cut[block]!),
      );
    };
    expect(few(7, 8)).toBeNull();
    expect(few(3, 2)).toBeNull();
    expect(few(8, 8)).not.toBeNull();
    expect(few(4, 2)).not.toBeNull();
  });

  it('is undefined when every trial has the same returns: the first of equals is no choice (it would read 1)', () => {
    expect(probabilityOfOverfitting([stats[0]!, stats[0]!, stats[0]!], counts)).toBeNull();
    expect(probabilityOfOverfitting([stats[0]!, stats[0]!, stats[1]!], counts)).not.toBeNull();
  });
});

describe("a half's Sharpe ratio from its sums", () => {
  it('is 0 for a half of equal returns (cash held under a risk-free rate), however its sums round', () => {
    const rf = 1.03 ** (1 / 252) - 1;
    for (const count of [252, 1000, 1258, 2517]) {
      const { blockSums, blockSquares } = returnStats(Array<number>(count).fill(-rf), 1);
      expect(sharpeOf(blockSums[0]!, blockSquares[0]!, count)).toBe(0);
    }
  });

  it('is the mean over the sample deviation otherwise, a small one included', () => {
    const returns = [0.01, 0.01 + 1e-4, 0.01 - 1e-4, 0.01];
    const { blockSums, blockSquares, mean, std } = returnStats(returns, 1);
    expect(sharpeOf(blockSums[0]!, blockSquares[0]!, 4)).toBeCloseTo(mean / std, 9);
  });
});

describe('probability of backtest overfitting, the tree walk against the reference', () => {
  const trial = (blocks: number): fc.Arbitrary<BlockReturns> =>
    fc.record({
      blockSums: fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), { minLength: blocks, maxLength: blocks }),
      blockSquares: fc.array(fc.double({ min: 0, max: 0.5, noNaN: true }), { minLength: blocks, maxLength: blocks }),
    });
  const caseOf = fc
    .constantFrom(2, 4, 6, 8, 10)
    .chain((blocks) =>
      fc.tuple(
        fc.array(trial(blocks), { minLength: 2, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: blocks, maxLength: blocks }),
        fc.array(fc.nat(), { maxLength: 6 }),
      ),
    );

  it('gives the same probability and every split’s logit, bit for bit, ties and repeated trials included', () => {
    fc.assert(
      fc.property(caseOf, ([trials, counts, repeats]) => {
        // Copies of earlier trials: tied Sharpe ratios, in and out of sample.
        const all = [...trials, ...repeats.map((at) => trials[at % trials.length]!)];
        expect(probabilityOfOverfitting(all, counts)).toEqual(probabilityOfOverfittingBySplit(all, counts));
      }),
      { numRuns: 300 },
    );
  });
});

describe('enumerating the splits', () => {
  it('enumerates every half of the blocks once', () => {
    const halves = [...combinations(6, 3)].map((half) => half.join(''));
    expect(halves).toHaveLength(20);
    expect(new Set(halves).size).toBe(20);
  });

  it.each([2, 4, 6, 8, 10, 16])('parts the splits of %i blocks so that each is computed once, with its complement', (blocks) => {
    const counts = Array.from({ length: blocks }, () => 5);
    const trials = Array.from({ length: 3 }, (_, trial) => ({
      blockSums: counts.map((_, block) => Math.sin(trial * 7 + block)),
      blockSquares: counts.map((_, block) => 1 + Math.cos(trial + block) ** 2),
    }));
    const input = splitInput(trials, counts);
    const masks = splitParts(blocks).flatMap((part) => [...splitLogits(input, part).masks]);
    const expected = [...combinations(blocks, blocks / 2)].map((half) => half.reduce((mask, block) => mask | (1 << block), 0));
    expect([...masks].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
  });

  it('gives the reference figures over 16 blocks whatever order the parts come back in', () => {
    let seed = 3;
    const next = (): number => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647 - 0.5;
    const counts = Array.from({ length: 16 }, (_, block) => 20 + block);
    const trials = Array.from({ length: 24 }, () => ({
      blockSums: counts.map(() => next()),
      blockSquares: counts.map(() => 1 + next()),
    }));
    // Trials 20..23 repeat earlier ones: tied Sharpe ratios.
    for (let copy = 20; copy < 24; copy += 1) trials[copy] = trials[copy - 20]!;
    const input = splitInput(trials, counts, true);
    const parts = splitParts(16).map((part) => splitLogits(input, part));
    expect(parts.length).toBeGreaterThan(1);
    const reference = probabilityOfOverfittingBySplit(trials, counts);
    expect(pboOfSplits(16, [...parts].reverse())).toEqual(reference);
    expect(probabilityOfOverfitting(trials, counts)).toEqual(reference);
  });
});

describe('deflated Sharpe ratio', () => {
  it('gives the reference value for the best of the example trials', () => {
    const stats = reference.returns.map((returns) => returnStats(returns, reference.blocks));
    const sharpes = stats.map((one) => one.mean / one.std);
    const best = stats[reference.best]!;
    expect(sharpes[reference.best]).toBeCloseTo(reference.bestSharpe, 12);
    expect(best.skewness).toBeCloseTo(reference.skewness, 12);
    expect(best.kurtosis).toBeCloseTo(reference.kurtosis, 12);
    const result = deflatedSharpe({
      trialSharpes: sharpes,
      sharpe: sharpes[reference.best]!,
      skewness: best.skewness,
      kurtosis: best.kurtosis,
      observations: best.count,
    })!;
    expect(result.expectedMaxSharpe).toBeCloseTo(reference.expectedMaxSharpe, 10);
    expect(result.probability).toBeCloseTo(reference.deflatedSharpe, 10);
  });

  it('gives the reference value for 100 trials, SR 0.1 over 1250 bars, skewness −0.5, kurtosis 5', () => {
    const result = deflatedSharpe({
      trialSharpes: reference.second.trialSharpes,
      sharpe: 0.1,
      skewness: -0.5,
      kurtosis: 5,
      observations: 1250,
    })!;
    expect(result.expectedMaxSharpe).toBeCloseTo(reference.second.expectedMaxSharpe, 10);
    expect(result.probability).toBeCloseTo(reference.second.deflatedSharpe, 10);
  });

  it('is undefined for a single trial', () => {
    expect(deflatedSharpe({ trialSharpes: [0.1], sharpe: 0.1, skewness: 0, kurtosis: 3, observations: 100 })).toBeNull();
  });
});
