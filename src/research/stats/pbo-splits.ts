// The CSCV splits of the probability of backtest overfitting, in parts that can run on any thread: the
// splits are walked as a tree of block choices (each block in or out, in block order), so neighbouring
// splits share their running sums, and a split and its complement (whose in-sample sums are the other's
// out-of-sample ones) are done together. Each part is the subtree under one choice of the first blocks.
// Sums are added in block order, as the split-by-split reference adds them, so every figure agrees bit
// for bit.

/** The trials' per-block sums, block-major (block b of trial t at b·trials + t); shareable across threads. */
export interface SplitInput {
  readonly trials: number;
  /** Returns per block. */
  readonly counts: readonly number[];
  readonly sums: Float64Array;
  readonly squares: Float64Array;
}

/** The splits under one choice of blocks 0..depth−1 (block 0 always in-sample; `mask` has the in ones). */
export interface SplitPart {
  readonly depth: number;
  readonly mask: number;
}

/** λ of every split of a part, each split named by the mask of its in-sample blocks. */
export interface SplitLogits {
  readonly masks: Int32Array;
  readonly logits: Float64Array;
}

/** Blocks decided per part: up to 2^(depth−1) parts of a few hundred splits each with 16 blocks. */
const PART_DEPTH = 5;

export interface BlockReturns {
  /** Σ returns per block (S blocks, the same cut for every trial). */
  readonly blockSums: readonly number[];
  /** Σ returns² per block. */
  readonly blockSquares: readonly number[];
}

export function splitInput(trials: readonly BlockReturns[], counts: readonly number[], shared = false): SplitInput {
  return splitInputOf(trials.length, counts, (trial) => trials[trial]!, shared);
}

/** splitInput of `count` trials, each read once by `blocksOf` (a view it may reuse: nothing is kept). */
export function splitInputOf(
  count: number,
  counts: readonly number[],
  blocksOf: (trial: number) => BlockReturns,
  shared = false,
): SplitInput {
  const blocks = counts.length;
  const buffer = (): ArrayBufferLike => (shared ? new SharedArrayBuffer(8 * blocks * count) : new ArrayBuffer(8 * blocks * count));
  const sums = new Float64Array(buffer());
  const squares = new Float64Array(buffer());
  for (let trial = 0; trial < count; trial += 1) {
    const { blockSums, blockSquares } = blocksOf(trial);
    for (let block = 0; block < blocks; block += 1) {
      sums[block * count + trial] = blockSums[block]!;
      squares[block * count + trial] = blockSquares[block]!;
    }
  }
  return { trials: count, counts: [...counts], sums, squares };
}

/** The parts covering every split once: each valid choice of the first blocks, block 0 in. */
export function splitParts(blocks: number): SplitPart[] {
  const half = blocks / 2;
  const depth = Math.min(blocks, PART_DEPTH);
  const parts: SplitPart[] = [];
  const choose = (block: number, taken: number, left: number, mask: number): void => {
    if (block === depth) return void parts.push({ depth, mask });
    if (taken < half) choose(block + 1, taken + 1, left, mask | (1 << block));
    if (left < half && block > 0) choose(block + 1, taken, left + 1, mask);
  };
  choose(0, 0, 0, 0);
  return parts;
}

export function splitLogits(input: SplitInput, part: SplitPart): SplitLogits {
  const { trials: n, counts } = input;
  const half = counts.length / 2;
  const walk: SplitWalk = {
    input,
    n,
    half,
    all: 2 ** counts.length - 1,
    inSums: new Float64Array((half + 1) * n),
    inSquares: new Float64Array((half + 1) * n),
    outSums: new Float64Array((half + 1) * n),
    outSquares: new Float64Array((half + 1) * n),
    inSharpes: new Float64Array(n),
    outSharpes: new Float64Array(n),
    ranks: new Float64Array(2),
    masks: [],
    logits: [],
  };
  // The part's own choice of the first blocks, then every split under it.
  let taken = 0;
  let left = 0;
  let inCount = 0;
  let outCount = 0;
  for (let block = 0; block < part.depth; block += 1) {
    if ((part.mask & (1 << block)) !== 0) {
      extendRow(walk.inSums, walk.inSquares, input.sums, input.squares, taken * n, block * n, n);
      taken += 1;
      inCount += counts[block]!;
    } else {
      extendRow(walk.outSums, walk.outSquares, input.sums, input.squares, left * n, block * n, n);
      left += 1;
      outCount += counts[block]!;
    }
  }
  walkSplits(walk, part.depth, taken, left, part.mask, inCount, outCount);
  return { masks: Int32Array.from(walk.masks), logits: Float64Array.from(walk.logits) };
}

/** A part's walk: the running sums of the blocks taken in (out) so far, one row per block taken (row 0 zeros). */
interface SplitWalk {
  readonly input: SplitInput;
  readonly n: number;
  readonly half: number;
  readonly all: number;
  readonly inSums: Float64Array;
  readonly inSquares: Float64Array;
  readonly outSums: Float64Array;
  readonly outSquares: Float64Array;
  readonly inSharpes: Float64Array;
  readonly outSharpes: Float64Array;
  readonly ranks: Float64Array;
  readonly masks: number[];
  readonly logits: number[];
}

function walkSplits(walk: SplitWalk, block: number, taken: number, left: number, mask: number, inCount: number, outCount: number): void {
  const { input, n, half } = walk;
  if (block === input.counts.length) {
    rankBoth(walk, inCount, outCount);
    walk.masks.push(mask, walk.all ^ mask);
    walk.logits.push(walk.ranks[0]!, walk.ranks[1]!);
    return;
  }
  if (taken < half) {
    extendRow(walk.inSums, walk.inSquares, input.sums, input.squares, taken * n, block * n, n);
    walkSplits(walk, block + 1, taken + 1, left, mask | (1 << block), inCount + input.counts[block]!, outCount);
  }
  if (left < half && block > 0) {
    extendRow(walk.outSums, walk.outSquares, input.sums, input.squares, left * n, block * n, n);
    walkSplits(walk, block + 1, taken, left + 1, mask, inCount, outCount + input.counts[block]!);
  }
}

/**
 * The split's λ into ranks[0], and its complement's into ranks[1]: both halves' Sharpe ratios and each
 * half's best trial (the first of equals) in one pass, then each best trial's rank in the other half (ties
 * at their average rank).
 */
function rankBoth(walk: SplitWalk, inCount: number, outCount: number): void {
  const { n, inSums, inSquares, outSums, outSquares, inSharpes, outSharpes, ranks } = walk;
  const last = walk.half * n;
  let bestIn = -1;
  let bestInSharpe = Number.NEGATIVE_INFINITY;
  let bestOut = -1;
  let bestOutSharpe = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < n; index += 1) {
    const inSharpe = sharpeOf(inSums[last + index]!, inSquares[last + index]!, inCount);
    const outSharpe = sharpeOf(outSums[last + index]!, outSquares[last + index]!, outCount);
    inSharpes[index] = inSharpe;
    outSharpes[index] = outSharpe;
    if (inSharpe > bestInSharpe) {
      bestInSharpe = inSharpe;
      bestIn = index;
    }
    if (outSharpe > bestOutSharpe) {
      bestOutSharpe = outSharpe;
      bestOut = index;
    }
  }
  const inTarget = bestIn < 0 ? Number.NaN : outSharpes[bestIn]!;
  const outTarget = bestOut < 0 ? Number.NaN : inSharpes[bestOut]!;
  let inBelow = 0;
  let inEqual = 0;
  let outBelow = 0;
  let outEqual = 0;
  for (let index = 0; index < n; index += 1) {
    const outSharpe = outSharpes[index]!;
    if (outSharpe < inTarget) inBelow += 1;
    else if (outSharpe === inTarget) inEqual += 1;
    const inSharpe = inSharpes[index]!;
    if (inSharpe < outTarget) outBelow += 1;
    else if (inSharpe === outTarget) outEqual += 1;
  }
  ranks[0] = logitOfRank(inBelow, inEqual, n);
  ranks[1] = logitOfRank(outBelow, outEqual, n);
}

/** Row `from` + n of the running sums: row `from` plus the block's sums at `source`. */
function extendRow(
  runSums: Float64Array,
  runSquares: Float64Array,
  sums: Float64Array,
  squares: Float64Array,
  from: number,
  source: number,
  n: number,
): void {
  const to = from + n;
  for (let index = 0; index < n; index += 1) {
    runSums[to + index] = runSums[from + index]! + sums[source + index]!;
    runSquares[to + index] = runSquares[from + index]! + squares[source + index]!;
  }
}

/** mean / sample std from sums; 0 for a flat or too short sample. */
export function sharpeOf(sum: number, squares: number, count: number): number {
  if (count < 2) return 0;
  const mean = sum / count;
  const deviations = squares - count * mean * mean;
  // The difference cancels: a half of equal returns (cash held under a risk-free rate, each return −rf) leaves
  // rounding noise, about count × 1e-16 of the squares at most, which alone read as a deviation: a Sharpe
  // ratio of −10⁷ in some halves and 0 in others, as the sums happened to round.
  const variance = deviations > squares * FLAT_SHARE ? deviations / (count - 1) : 0;
  return variance > 1e-28 ? mean / Math.sqrt(variance) : 0;
}

/** Below this share of the squares the deviations are rounding: a real one is a per-bar Sharpe ratio under ~3·10⁴. */
const FLAT_SHARE = 1e-9;

/** λ = ln(ω / (1 − ω)), ω = rank / (N + 1), the rank counting ties at their average. */
export function logitOfRank(below: number, equal: number, trials: number): number {
  const omega = (below + (equal + 1) / 2) / (trials + 1);
  return Math.log(omega / (1 - omega));
}
