// Merges several symbols' candle series into one time-ordered sequence (ties keep the series order), with
// a heap of the series' next bars: n log k for k series, not n·k.
import type { Candle } from '../../domain/candle.js';

export function mergeByTime(series: readonly (readonly Candle[])[]): Candle[] {
  const total = series.reduce((sum, list) => sum + list.length, 0);
  const merged: Candle[] = new Array(total);
  const cursors = new Int32Array(series.length);
  // Time of each series' next bar, and a heap of series indexes ordered by (that time, series index).
  const next = new Float64Array(series.length);
  const heap: number[] = [];
  series.forEach((list, index) => {
    if (list.length === 0) return;
    next[index] = list[0]!.time;
    heap.push(index);
  });
  const before = (a: number, b: number): boolean => next[a]! < next[b]! || (next[a] === next[b] && a < b);
  const siftDown = (from: number): void => {
    let index = from;
    const moving = heap[index]!;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const child = left + 1 < heap.length && before(heap[left + 1]!, heap[left]!) ? left + 1 : left;
      if (!before(heap[child]!, moving)) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = moving;
  };
  for (let index = (heap.length >> 1) - 1; index >= 0; index -= 1) siftDown(index);
  for (let out = 0; out < total; out++) {
    const top = heap[0]!;
    const list = series[top]!;
    const cursor = cursors[top]!;
    merged[out] = list[cursor]!;
    cursors[top] = cursor + 1;
    if (cursor + 1 < list.length) {
      next[top] = list[cursor + 1]!.time;
    } else {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length > 0) siftDown(0);
  }
  return merged;
}
