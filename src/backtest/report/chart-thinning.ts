// What the report's charts draw of a long run: at most CHART_POINTS candles per symbol and points of the
// equity curve, so that a long run's page opens at all (README, "--report"). Joined, the candles keep each
// group's open, extremes and close, and the curve keeps each group's highest and lowest equity and deepest
// drawdown, so no peak, trough or fall is lost from the picture.

/** Candles per symbol, and points of the equity curve, that a report draws at most. */
export const CHART_POINTS = 20_000;

/** Bars joined into one drawn candle (1: none) so that `bars` make at most CHART_POINTS. */
export function barsPerCandle(bars: number): number {
  return Math.max(1, Math.ceil(bars / CHART_POINTS));
}

export interface BarColumns {
  readonly time: ArrayLike<number>;
  readonly open: ArrayLike<number>;
  readonly high: ArrayLike<number>;
  readonly low: ArrayLike<number>;
  readonly close: ArrayLike<number>;
}

/** Every `group` bars as one: the first's time and open, the highest high, the lowest low, the last close. */
export function joinedBars(bars: BarColumns, group: number): BarColumns {
  if (group <= 1) return bars;
  const count = Math.ceil(bars.close.length / group);
  const time = new Array<number>(count);
  const open = new Array<number>(count);
  const high = new Array<number>(count);
  const low = new Array<number>(count);
  const close = new Array<number>(count);
  for (let candle = 0; candle < count; candle += 1) {
    const first = candle * group;
    const end = Math.min(bars.close.length, first + group);
    let highest = bars.high[first]!;
    let lowest = bars.low[first]!;
    for (let index = first + 1; index < end; index += 1) {
      if (bars.high[index]! > highest) highest = bars.high[index]!;
      if (bars.low[index]! < lowest) lowest = bars.low[index]!;
    }
    time[candle] = bars.time[first]!;
    open[candle] = bars.open[first]!;
    high[candle] = highest;
    low[candle] = lowest;
    close[candle] = bars.close[end - 1]!;
  }
  return { time, open, high, low, close };
}

/**
 * The points of the curve drawn (indexes, in order): all of them up to CHART_POINTS, else per group of
 * points its first, highest and lowest equity and deepest drawdown (the last point always).
 */
export function curvePoints(equity: ArrayLike<number>, drawdown: ArrayLike<number>): number[] {
  const count = equity.length;
  if (count <= CHART_POINTS) return Array.from({ length: count }, (_, index) => index);
  const group = Math.ceil(count / Math.floor(CHART_POINTS / 4));
  const kept: number[] = [];
  for (let first = 0; first < count; first += group) {
    const end = Math.min(count, first + group);
    let highest = first;
    let lowest = first;
    let deepest = first;
    for (let index = first + 1; index < end; index += 1) {
      if (equity[index]! > equity[highest]!) highest = index;
      if (equity[index]! < equity[lowest]!) lowest = index;
      if (drawdown[index]! < drawdown[deepest]!) deepest = index;
    }
    for (const index of [...new Set([first, highest, lowest, deepest])].sort((a, b) => a - b)) kept.push(index);
  }
  if (kept[kept.length - 1] !== count - 1) kept.push(count - 1);
  return kept;
}
