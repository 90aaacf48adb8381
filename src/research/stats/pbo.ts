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
 * The figures of {@link probabilityOfOverfittingBySplit}, bit for bit: the splits are walked as a tree of
 * block choices (each block in or out, in block order), so neighbouring splits share their running sums,
 * and a split and its complement (whose in-sample sums are the other's out-of-sample ones) are done
 * together. Sums are added in the reference's order, so every Sharpe ratio, best trial and rank agree.
 */
export function probabilityOfOverfitting(trials: readonly BlockReturns[], counts: readonly number[]): Pbo | null {
  const blocks = counts.length;
  const n = trials.length;
  if (n < 2 || blocks < 2 || blocks % 2 !== 0) return null;
  const half = blocks / 2;
  const positions = new Map<number, number>();
  for (const split of combinations(blocks, half)) positions.set(maskOf(split), positions.size);
  const logits = new Array<number>(positions.size);
  // Block-major copies of the trials' sums, and the running sums of the blocks taken in (out) so far, one
  // row per number taken: row 0 is all zeros, as the reference's sums start.
  const sums = new Float64Array(blocks * n);
  const squares = new Float64Array(blocks * n);
  trials.forEach((trial, index) => {
    for (let block = 0; block < blocks; block += 1) {
      sums[block * n + index] = trial.blockSums[block]!;
      squares[block * n + index] = trial.blockSquares[block]!;
    }
  });
  const inSums = new Float64Array((half + 1) * n);
  const inSquares = new Float64Array((half + 1) * n);
  const outSums = new Float64Array((half + 1) * n);
  const outSquares = new Float64Array((half + 1) * n);
  const inSharpes = new Float64Array(n);
  const outSharpes = new Float64Array(n);
  const all = 2 ** blocks - 1;

  const extend = (runSums: Float64Array, runSquares: Float64Array, row: number, block: number): void => {
    const from = row * n;
    const to = from + n;
    const source = block * n;
    for (let index = 0; index < n; index += 1) {
      runSums[to + index] = runSums[from + index]! + sums[source + index]!;
      runSquares[to + index] = runSquares[from + index]! + squares[source + index]!;
    }
  };

  const leaf = (mask: number, inCount: number, outCount: number): void => {
    const last = half * n;
    sharpesOf(inSums, inSquares, last, inCount, inSharpes);
    sharpesOf(outSums, outSquares, last, outCount, outSharpes);
    logits[positions.get(mask)!] = logitOf(inSharpes, outSharpes);
    logits[positions.get(all ^ mask)!] = logitOf(outSharpes, inSharpes);
  };

  // Block 0 is always in: every split with it out is the complement of one walked here.
  const walk = (block: number, taken: number, left: number, mask: number, inCount: number, outCount: number): void => {
    if (block === blocks) {
      leaf(mask, inCount, outCount);
      return;
    }
    if (taken < half) {
      extend(inSums, inSquares, taken, block);
      walk(block + 1, taken + 1, left, mask | (1 << block), inCount + counts[block]!, outCount);
    }
    if (left < half && block > 0) {
      extend(outSums, outSquares, left, block);
      walk(block + 1, taken, left + 1, mask, inCount, outCount + counts[block]!);
    }
  };
  walk(0, 0, 0, 0, 0, 0);
  return { probability: logits.filter((logit) => logit <= 0).length / logits.length, logits, splits: logits.length };
}

/**
 * The reference, split by split. `counts[b]` is the number of returns in block b. Ties in the out-of-sample
 * ranking share their average rank; the in-sample best is the first of equals (lowest trial index). Null
 * with fewer than 2 trials.
 */
export function probabilityOfOverfittingBySplit(trials: readonly BlockReturns[], counts: readonly number[]): Pbo | null {
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
    logits.push(logitOfBest(best, oos));
  }
  return { probability: logits.filter((logit) => logit <= 0).length / logits.length, logits, splits: logits.length };
}

/** λ of a split: the in-sample best trial's out-of-sample rank among all trials, ties at their average rank. */
function logitOf(inSharpes: Float64Array, outSharpes: Float64Array): number {
  let best = -1;
  let bestSharpe = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < inSharpes.length; index += 1) {
    if (inSharpes[index]! > bestSharpe) {
      bestSharpe = inSharpes[index]!;
      best = index;
    }
  }
  return logitOfBest(best, outSharpes);
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
  const rank = below + (equal + 1) / 2;
  const omega = rank / (outSharpes.length + 1);
  return Math.log(omega / (1 - omega));
}

function maskOf(blocks: readonly number[]): number {
  let mask = 0;
  for (const block of blocks) mask |= 1 << block;
  return mask;
}

/** sharpeOf for each trial, from the running sums' row starting at `from`. */
function sharpesOf(sums: Float64Array, squares: Float64Array, from: number, count: number, into: Float64Array): void {
  if (count < 2) return void into.fill(0);
  for (let index = 0; index < into.length; index += 1) {
    const mean = sums[from + index]! / count;
    const variance = (squares[from + index]! - count * mean * mean) / (count - 1);
    into[index] = variance > 1e-28 ? mean / Math.sqrt(variance) : 0;
  }
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
