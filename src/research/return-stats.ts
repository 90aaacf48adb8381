// Summary statistics of one trial's per-bar returns: what the deflated Sharpe ratio needs (moments) and
// what CSCV needs (sums per block of bars), so the trials' whole return series never have to be kept.
export interface ReturnStats {
  readonly count: number;
  readonly mean: number;
  /** Sample standard deviation (n − 1); 0 when flat or fewer than 2 returns. */
  readonly std: number;
  /** Sample skewness (population moments: m3 / m2^1.5); 0 when flat. */
  readonly skewness: number;
  /** Kurtosis, not excess (m4 / m2²; 3 for a normal distribution); 3 when flat. */
  readonly kurtosis: number;
  /** Σ returns of each of the equal blocks the bars are cut into (see blockBounds). */
  readonly blockSums: readonly number[];
  /** Σ returns² of each block. */
  readonly blockSquares: readonly number[];
}

/** Block b covers returns [bounds[b], bounds[b + 1]): `blocks` contiguous blocks of near-equal size. */
export function blockBounds(count: number, blocks: number): number[] {
  return Array.from({ length: blocks + 1 }, (_, block) => Math.floor((block * count) / blocks));
}

export function returnStats(returns: ArrayLike<number>, blocks: number): ReturnStats {
  const count = returns.length;
  let sum = 0;
  for (let index = 0; index < count; index += 1) sum += returns[index]!;
  const mean = count === 0 ? 0 : sum / count;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let index = 0; index < count; index += 1) {
    const deviation = returns[index]! - mean;
    const square = deviation * deviation;
    m2 += square;
    m3 += square * deviation;
    m4 += square * square;
  }
  const flat = count < 2 || m2 / count < 1e-28;
  const bounds = blockBounds(count, blocks);
  const blockSums: number[] = [];
  const blockSquares: number[] = [];
  for (let block = 0; block < blocks; block += 1) {
    let blockSum = 0;
    let blockSquare = 0;
    for (let index = bounds[block]!; index < bounds[block + 1]!; index += 1) {
      blockSum += returns[index]!;
      blockSquare += returns[index]! * returns[index]!;
    }
    blockSums.push(blockSum);
    blockSquares.push(blockSquare);
  }
  return {
    count,
    mean,
    std: flat ? 0 : Math.sqrt(m2 / (count - 1)),
    skewness: flat ? 0 : m3 / count / (m2 / count) ** 1.5,
    kurtosis: flat ? 3 : m4 / count / (m2 / count) ** 2,
    blockSums,
    blockSquares,
  };
}
