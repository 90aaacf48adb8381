// Merges several symbols' candle series into one time-ordered sequence (ties keep the series order).
import type { Candle } from '../../domain/candle.js';

export function mergeByTime(series: readonly (readonly Candle[])[]): Candle[] {
  const total = series.reduce((sum, list) => sum + list.length, 0);
  const merged: Candle[] = new Array(total);
  const cursors = series.map(() => 0);
  for (let out = 0; out < total; out++) {
    let best = -1;
    let bestTime = Number.POSITIVE_INFINITY;
    for (let i = 0; i < series.length; i++) {
      const candle = series[i]![cursors[i]!];
      if (candle !== undefined && candle.time < bestTime) {
        best = i;
        bestTime = candle.time;
      }
    }
    merged[out] = series[best]![cursors[best]!++]!;
  }
  return merged;
}
