// The probability of backtest overfitting by combinatorially symmetric cross-validation (Bailey, Borwein,
// López de Prado and Zhu, 2015), computed from each trial's per-block return sums.
//
// The bars are cut into S blocks; for every choice of S/2 blocks as in-sample (the rest out-of-sample) the
// trial with the best in-sample Sharpe ratio (mean / sample std of its returns) is found, and its
// out-of-sample Sharpe ratio ranked among all trials': ω = rank / (N + 1), λ = ln(ω / (1 − ω)). PBO is the
// share of splits with λ ≤ 0 (the in-sample best is at or below the out-of-sample median).

export interface BlockReturns {
  /** Σ returns per block (S blocks, the same cut for every trial). */
  readonly blockSums: readonly number[];
  /** Σ returns² per block. */
  readonly blockSquares: readonly number[];
}

export interface Pbo {
  readonly probability: number;
  /** λ of every split, in the order the splits were enumerated. */
  readonly logits: readonly number[];
  readonly splits: number;
}

/**
 * `counts[b]` is the number of returns in block b. Ties in the out-of-sample ranking share their average
 * rank; the in-sample best is the first of equals (lowest trial index). Null with fewer than 2 trials.
 */
export function probabilityOfOverfitting(trials: readonly BlockReturns[], counts: readonly number[]): Pbo | null {
  const blocks = counts.length;
  if (trials.length < 2 || blocks < 2 || blocks % 2 !== 0) return null;
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
    const target = oos[best]!;
    let below = 0;
    let equal = 0;
    for (const value of oos) {
      if (value < target) below += 1;
      else if (value === target) equal += 1;
    }
    const rank = below + (equal + 1) / 2;
    const omega = rank / (trials.length + 1);
    logits.push(Math.log(omega / (1 - omega)));
  }
  return { probability: logits.filter((logit) => logit <= 0).length / logits.length, logits, splits: logits.length };
}

/** mean / sample std from sums; 0 for a flat or too short sample. */
function sharpeOf(sum: number, squares: number, count: number): number {
  if (count < 2) return 0;
  const mean = sum / count;
  const variance = (squares - count * mean * mean) / (count - 1);
  return variance > 1e-28 ? mean / Math.sqrt(variance) : 0;
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
