// Round ticks for the optimize page's scatter (drawn on the server).

export interface Ticks {
  /** The axis runs from the first tick to the last: both round, the values inside. */
  readonly values: readonly number[];
  readonly places: number;
}

/** Ticks about (`high` - `low`) / `count` apart, 1, 2 or 5 × a power of ten, from at or below `low` to at or above `high`. */
export function niceTicks(low: number, high: number, count: number): Ticks {
  if (high === low) [low, high] = [low - (Math.abs(low) || 1) / 2, high + (Math.abs(high) || 1) / 2];
  const rough = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  // The nearest of 1, 2, 5 and 10 on a log scale (as d3's ticks): about `count` ticks, fewer or more.
  const ratio = rough / power;
  const step = power * (ratio >= Math.sqrt(50) ? 10 : ratio >= Math.sqrt(10) ? 5 : ratio >= Math.SQRT2 ? 2 : 1);
  const places = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const first = Math.floor(low / step + 1e-9);
  const last = Math.ceil(high / step - 1e-9);
  const values = Array.from({ length: last - first + 1 }, (_, index) => Number(((first + index) * step).toFixed(places)));
  return { values, places };
}
