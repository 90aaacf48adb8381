// The probability of backtest overfitting by combinatorially symmetric cross-validation (Bailey, Borwein,
// López de Prado and Zhu, 2015), computed from each trial's per-block return sums.
//
// The bars are cut into S blocks; for every choice of S/2 blocks as in-sample (the rest out-of-sample) the
// trial with the best in-sample Sharpe ratio (mean / sample std of its returns) is found, and its
// out-of-sample Sharpe ratio ranked among all trials': ω = rank / (N + 1), λ = ln(ω / (1 − ω)). PBO is the
// share of splits with λ ≤ 0 (the in-sample best is at or below the out-of-sample median).

import {
  type BlockReturns,
  logitOfRank,
  sharpeOf,
  type SplitInput,
  type SplitLogits,
  splitInput,
  splitLogits,
  splitParts,
} from './pbo-splits.js';

export type { BlockReturns };

export interface Pbo {
  readonly probability: number;
  /** λ of every split, in the order the splits were enumerated. */
  readonly logits: readonly number[];
  readonly splits: number;
}

/**
 * The figures of {@link probabilityOfOverfittingBySplit}, bit for bit, from the splits walked as a tree
 * (pbo-splits.ts) in this thread. Null with fewer than 2 trials, an odd number of blocks, or trials it cannot
 * judge (see pboUnjudgeable).
 */
export function probabilityOfOverfitting(trials: readonly BlockReturns[], counts: readonly number[]): Pbo | null {
  if (!pboDefined(trials.length, counts.length)) return null;
  const input = splitInput(trials, counts);
  if (pboUnjudgeable(input) !== null) return null;
  return pboOfSplits(
    counts.length,
    splitParts(counts.length).map((part) => splitLogits(input, part)),
  );
}

export function pboDefined(trials: number, blocks: number): boolean {
  return trials >= 2 && blocks >= 2 && blocks % 2 === 0;
}

/**
 * Why CSCV has nothing to judge in these trials, or null when it has. A block without a return (more blocks
 * than bars) makes halves of unequal size and splits that repeat one another, and a half of fewer than 2
 * returns has no Sharpe ratio. Trials whose returns are all the same tie in every half: the first of equals
 * then lands on the median each time, a PBO of 1 for a choice that was never made.
 */
export function pboUnjudgeable(input: SplitInput): string | null {
  const { counts, trials, sums, squares } = input;
  const smallestHalf = [...counts]
    .sort((a, b) => a - b)
    .slice(0, counts.length / 2)
    .reduce((sum, count) => sum + count, 0);
  if (Math.min(...counts) < 1 || smallestHalf < 2) {
    const returns = counts.reduce((sum, count) => sum + count, 0);
    return `too few returns for ${counts.length} blocks: ${returns}, where each block needs 1 and each half 2`;
  }
  // Block-major: each block's row of trials compared with its first trial.
  for (let at = 0; at < sums.length; at += 1) {
    const first = at - (at % trials);
    if (sums[at] !== sums[first] || squares[at] !== squares[first]) return null;
  }
  return 'every trial has the same returns: there is no best to judge';
}

/** PBO from every split's λ, however the splits were parted; logits in the splits' enumeration order. */
export function pboOfSplits(blocks: number, parts: readonly SplitLogits[]): Pbo {
  const positions = new Map<number, number>();
  for (const split of combinations(blocks, blocks / 2)) positions.set(maskOf(split), positions.size);
  const logits = new Array<number>(positions.size);
  for (const part of parts)
    for (let index = 0; index < part.masks.length; index += 1) logits[positions.get(part.masks[index]!)!] = part.logits[index]!;
  return { probability: logits.filter((logit) => logit <= 0).length / logits.length, logits, splits: logits.length };
}

/**
 * The reference, split by split. `counts[b]` is the number of returns in block b. Ties in the out-of-sample
 * ranking share their average rank; the in-sample best is the first of equals (lowest trial index). Null
 * with fewer than 2 trials or trials it cannot judge (see pboUnjudgeable).
 */
export function probabilityOfOverfittingBySplit(trials: readonly BlockReturns[], counts: readonly number[]): Pbo | null {
  const blocks = counts.length;
  if (!pboDefined(trials.length, blocks) || pboUnjudgeable(splitInput(trials, counts)) !== null) return null;
  const logits: number[] = [];
  const oos = new Float64Array(trials.length);
  for (const inSample of combinations(blocks, blocks / 2)) {
    const chosen = new Uint8Array(blocks);
    for (const block of inSample) chosen[block] = 1;
    let best = -1;
    let bestSharpe = Number.NEGATIVE_INFINITY;
    trials.forEach((trial, index) => {
      let inSum = 0;
      let inSquares = 0;
      let inCount = 0;
      let outSum = 0;
      let outSquares = 0;
      let outCount = 0;
      for (let block = 0; block < blocks; block += 1) {
        if (chosen[block] === 1) {
          inSum += trial.blockSums[block]!;
          inSquares += trial.blockSquares[block]!;
          inCount += counts[block]!;
        } else {
          outSum += trial.blockSums[block]!;
          outSquares += trial.blockSquares[block]!;
          outCount += counts[block]!;
        }
      }
      const inSharpe = sharpeOf(inSum, inSquares, inCount);
      if (inSharpe > bestSharpe) {
        bestSharpe = inSharpe;
        best = index;
      }
      oos[index] = sharpeOf(outSum, outSquares, outCount);
    });
    logits.push(logitOfBest(best, oos));
  }
  return { probability: logits.filter((logit) => logit <= 0).length / logits.length, logits, splits: logits.length };
}

function logitOfBest(best: number, outSharpes: Float64Array): number {
  const target = best < 0 ? Number.NaN : outSharpes[best]!;
  let below = 0;
  let equal = 0;
  for (let index = 0; index < outSharpes.length; index += 1) {
    const value = outSharpes[index]!;
    if (value < target) below += 1;
    else if (value === target) equal += 1;
  }
  return logitOfRank(below, equal, outSharpes.length);
}

function maskOf(blocks: readonly number[]): number {
  let mask = 0;
  for (const block of blocks) mask |= 1 << block;
  return mask;
}

/** Every k-subset of 0..n−1 in lexicographic order. */
export function* combinations(n: number, k: number): Generator<readonly number[]> {
  const chosen = Array.from({ length: k }, (_, index) => index);
  while (true) {
    yield [...chosen];
    let position = k - 1;
    while (position >= 0 && chosen[position] === n - k + position) position -= 1;
    if (position < 0) return;
    chosen[position] = chosen[position]! + 1;
    for (let next = position + 1; next < k; next += 1) chosen[next] = chosen[next - 1]! + 1;
  }
}
