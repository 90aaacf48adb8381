// Virtual time for backtests and tests: time moves only when told to, and timers fire in due order.
import type { Clock, TimerHandle } from '../domain/clock.js';

// The timer is its own handle (a method, not a closure per timer: backtests arm one per broker request).
class Timer implements TimerHandle {
  cancelled = false;

  constructor(
    public due: number,
    public seq: number,
    readonly callback: () => void,
    readonly intervalMs: number | undefined,
  ) {}

  cancel(): void {
    this.cancelled = true;
  }
}

export class VirtualClock implements Clock {
  // A number from the start: a field declared without one holds undefined until the constructor runs, and
  // a field that held undefined boxes every float stored in it (a new heap number per move, two per bar).
  private time = 0;
  private seq = 0;
  private readonly heap: Timer[] = [];

  constructor(startMs = 0) {
    this.time = startMs;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    return this.add(callback, Math.max(0, delayMs), undefined);
  }

  setInterval(callback: () => void, intervalMs: number): TimerHandle {
    return this.add(callback, Math.max(1, intervalMs), Math.max(1, intervalMs));
  }

  /** Number of armed timers. */
  get pendingTimers(): number {
    return this.heap.filter((timer) => !timer.cancelled).length;
  }

  /** Due time of the earliest armed timer, if any. */
  nextTimerAt(): number | undefined {
    this.dropCancelled();
    return this.heap[0]?.due;
  }

  /** Moves time to `targetMs`, firing every timer due on the way, synchronously. */
  advanceTo(targetMs: number): void {
    // Without timers only the time moves.
    if (this.heap.length === 0) {
      if (targetMs > this.time) this.time = targetMs;
      return;
    }
    for (;;) {
      this.dropCancelled();
      const next = this.heap[0];
      if (next === undefined || next.due > targetMs) break;
      this.fire(next);
    }
    if (targetMs > this.time) this.time = targetMs;
  }

  /**
   * advanceTo(times[index]): a slot rather than a float, for the backtest's walk, which moves the clock on
   * every bar (bench/README.md, "No heap number per bar").
   */
  advanceToAt(times: Float64Array, index: number): void {
    const targetMs = times[index]!;
    if (this.heap.length === 0) {
      if (targetMs > this.time) this.time = targetMs;
      return;
    }
    this.advanceTo(targetMs);
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.time + ms);
  }

  /**
   * Like advanceTo, but lets promise continuations run before and after each timer, so async code
   * (awaits, I/O callbacks already queued) reacts at the virtual time it was woken at.
   */
  async advanceToAsync(targetMs: number): Promise<void> {
    await settle();
    for (;;) {
      this.dropCancelled();
      const next = this.heap[0];
      if (next === undefined || next.due > targetMs) break;
      this.fire(next);
      await settle();
    }
    if (targetMs > this.time) this.time = targetMs;
    await settle();
  }

  async advanceByAsync(ms: number): Promise<void> {
    await this.advanceToAsync(this.time + ms);
  }

  /** Fires timers until none is left (intervals excluded after `limitMs` of virtual time). */
  async runAllAsync(limitMs = 24 * 3600_000): Promise<void> {
    await this.advanceToAsync(this.time + limitMs);
  }

  private add(callback: () => void, delayMs: number, intervalMs: number | undefined): TimerHandle {
    const timer = new Timer(this.time + delayMs, this.seq++, callback, intervalMs);
    this.push(timer);
    return timer;
  }

  private fire(timer: Timer): void {
    this.pop();
    this.time = Math.max(this.time, timer.due);
    if (timer.intervalMs !== undefined) {
      timer.due += timer.intervalMs;
      timer.seq = this.seq++;
      this.push(timer);
    }
    timer.callback();
  }

  private dropCancelled(): void {
    while (this.heap.length > 0 && this.heap[0]!.cancelled) this.pop();
  }

  private push(timer: Timer): void {
    const heap = this.heap;
    heap.push(timer);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(heap[index]!, heap[parent]!)) break;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === index) break;
      [heap[index], heap[smallest]] = [heap[smallest]!, heap[index]!];
      index = smallest;
    }
  }
}

function before(a: Timer, b: Timer): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}

/** Lets queued promise continuations and already-arrived I/O callbacks run. Not a delay in time. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
