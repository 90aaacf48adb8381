// Drawdown of an equity curve: the running fall from the highest equity so far, and its deepest episode.

export interface MaxDrawdown {
  /** Fraction of the peak (0.25 = equity 25 % below its peak); 0 when equity never fell. */
  readonly depth: number;
  /** Index of the peak point; −1 when the peak is the initial cash, before the first bar. */
  readonly peakIndex: number;
  readonly troughIndex: number;
  /** First index back at or above the peak; undefined when it never recovered. */
  readonly recoveryIndex: number | undefined;
}

/**
 * The deepest drawdown. The initial cash is the first peak, so a loss on the very first bar counts.
 * With several equally deep troughs, the first one is reported.
 */
export function maxDrawdown(equity: ArrayLike<number>, initialEquity: number): MaxDrawdown | undefined {
  let peak = initialEquity;
  let peakIndex = -1;
  let worst: { depth: number; peakIndex: number; troughIndex: number } | undefined;
  for (let index = 0; index < equity.length; index += 1) {
    const value = equity[index]!;
    if (value >= peak) {
      peak = value;
      peakIndex = index;
    } else if (peak > 0) {
      const depth = (peak - value) / peak;
      if (worst === undefined || depth > worst.depth) worst = { depth, peakIndex, troughIndex: index };
    }
  }
  if (worst === undefined) return undefined;
  const peakValue = worst.peakIndex < 0 ? initialEquity : equity[worst.peakIndex]!;
  let recoveryIndex: number | undefined;
  for (let index = worst.troughIndex + 1; index < equity.length; index += 1) {
    if (equity[index]! >= peakValue) {
      recoveryIndex = index;
      break;
    }
  }
  return { ...worst, recoveryIndex };
}

/** Drawdown at each point as a non-positive fraction of the running peak (−0.1 = 10 % below it). */
export function drawdownSeries(equity: ArrayLike<number>, initialEquity: number): Float64Array {
  const series = new Float64Array(equity.length);
  let peak = initialEquity;
  for (let index = 0; index < equity.length; index += 1) {
    const value = equity[index]!;
    if (value > peak) peak = value;
    series[index] = peak > 0 ? value / peak - 1 : 0;
  }
  return series;
}
