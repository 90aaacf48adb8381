// Merges several symbols' candle series into one time-ordered sequence (ties keep the series order), with
// a heap of the series' next bars: n log k for k series, not n·k.
import type { Candle } from '../../domain/candle.js';

export function mergeByTime(series: readonly (readonly Candle[])[]): Candle[] {
  const total = series.reduce((sum, list) => sum + list.length, 0);
  const merged: Candle[] = new Array(total);
  const cursors = series.map(() => 0);
  // Heap of series indexes, ordered by (time of the series' next bar, series index).
  const heap: number[] = [];
  const before = (a: number, b: number): boolean => {
    const timeA = series[a]![cursors[a]!]!.time;
    const timeB = series[b]![cursors[b]!]!.time;
    return timeA < timeB || (timeA === timeB && a < b);
  };
  const siftDown = (from: number): void => {
    let index = from;
    for (;;) {
      const left = 2 * index + 1;
      let best = index;
      if (left < heap.length && before(heap[left]!, heap[best]!)) best = left;
      if (left + 1 < heap.length && before(heap[left + 1]!, heap[best]!)) best = left + 1;
      if (best === index) return;
      [heap[index], heap[best]] = [heap[best]!, heap[index]!];
      index = best;
    }
  };
  series.forEach((list, index) => {
    if (list.length > 0) heap.push(index);
  });
  for (let index = (heap.length >> 1) - 1; index >= 0; index -= 1) siftDown(index);
  for (let out = 0; out < total; out++) {
    const next = heap[0]!;
    merged[out] = series[next]![cursors[next]!++]!;
    if (cursors[next]! >= series[next]!.length) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    siftDown(0);
  }
  return merged;
}
