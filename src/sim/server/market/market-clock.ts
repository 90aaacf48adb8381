// The replay's market time as a Clock, for the venue and for a runtime sharing the simulator: now() is the
// latest tick's time, moving on at `speed` × the base clock between ticks while the replay is paced (never
// past the next tick), and timers are due in market time: they fire after each tick or as time runs.
import type { Clock, TimerHandle } from '../../../domain/clock.js';

interface MarketTimer {
  due: number;
  readonly seq: number;
  readonly callback: () => void;
  readonly intervalMs: number | undefined;
  cancelled: boolean;
}

export class MarketClock implements Clock {
  private last: number;
  private lastAt: number;
  private next: number | undefined;
  private paced = false;
  private timers: MarketTimer[] = [];
  private seq = 0;
  private wake: TimerHandle | undefined;

  constructor(
    private readonly base: Clock,
    private readonly speed: number,
    start: number,
  ) {
    this.last = start;
    this.lastAt = base.now();
    this.next = start;
  }

  now(): number {
    if (!this.paced) return this.last;
    const run = this.last + (this.base.now() - this.lastAt) * this.speed;
    return this.next === undefined ? this.last : Math.min(run, this.next);
  }

  /** A tick at market time `time` is being delivered; `next` is the following tick's time, if any. */
  advance(time: number, next: number | undefined): void {
    this.last = Math.max(this.last, time);
    this.lastAt = this.base.now();
    this.next = next;
  }

  /** Runs the timers that are due (after a tick has been handled). */
  runDue(): void {
    this.fireDue();
  }

  /** Paced: time runs between ticks on the base clock. Stepped: time is the latest tick's, exactly. */
  setPaced(paced: boolean): void {
    this.last = this.now();
    this.lastAt = this.base.now();
    this.paced = paced;
    this.arm();
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    return this.add(callback, Math.max(0, delayMs), undefined);
  }

  setInterval(callback: () => void, intervalMs: number): TimerHandle {
    return this.add(callback, Math.max(1, intervalMs), Math.max(1, intervalMs));
  }

  /** Cancels every timer (the simulator is closing). */
  stop(): void {
    this.paced = false;
    this.wake?.cancel();
    this.wake = undefined;
    this.timers = [];
  }

  private add(callback: () => void, delayMs: number, intervalMs: number | undefined): TimerHandle {
    const timer: MarketTimer = { due: this.now() + delayMs, seq: this.seq++, callback, intervalMs, cancelled: false };
    this.timers.push(timer);
    this.arm();
    return { cancel: () => void (timer.cancelled = true) };
  }

  private fireDue(): void {
    for (;;) {
      const now = this.now();
      this.timers = this.timers.filter((timer) => !timer.cancelled);
      const due = this.timers.filter((timer) => timer.due <= now).sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (due === undefined) break;
      if (due.intervalMs === undefined) due.cancelled = true;
      else due.due += due.intervalMs;
      due.callback();
    }
    this.arm();
  }

  /** While paced, wakes up on the base clock when the earliest timer is due. */
  private arm(): void {
    this.wake?.cancel();
    this.wake = undefined;
    if (!this.paced) return;
    const earliest = this.timers.reduce((min, timer) => (timer.cancelled ? min : Math.min(min, timer.due)), Number.POSITIVE_INFINITY);
    if (!Number.isFinite(earliest)) return;
    const wait = Math.max(1, (earliest - this.now()) / this.speed);
    this.wake = this.base.setTimeout(() => this.fireDue(), wait);
  }
}
