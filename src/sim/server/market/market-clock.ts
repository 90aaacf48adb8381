// The replay's market time as a Clock, for the venue and for a runtime sharing the simulator: now() is the
// latest tick's time, moving on at `speed` × the base clock between ticks while the replay is paced (never
// past the next tick), and timers are due in market time: they fire after each tick or as time runs.
// In lockstep (in-process clients the replay waits for), time runs by itself only up to the end of the bars
// under way and the earliest timer; timers fire when the replay crosses them (crossTo), the clock standing
// at each one's instant.
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
  private barsEnd = Number.POSITIVE_INFINITY;
  private paced = false;
  private lockstep = false;
  /** Crossing: time stands at `last` while timers fire and clients settle. */
  private holding = false;
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
    if (!this.paced || this.holding || this.next === undefined) return this.last;
    const run = Math.min(this.last + (this.base.now() - this.lastAt) * this.speed, this.next);
    return this.lockstep ? Math.max(this.last, Math.min(run, this.barsEnd, this.earliestDue())) : run;
  }

  /**
   * A tick at market time `time` is being delivered; `next` is the following tick's time, if any, and
   * `barsEnd` the earliest end of the bars under way, past which time does not run by itself in lockstep.
   */
  advance(time: number, next: number | undefined, barsEnd = Number.POSITIVE_INFINITY): void {
    this.last = Math.max(this.last, time);
    this.lastAt = this.base.now();
    this.next = next;
    this.barsEnd = barsEnd;
  }

  /**
   * Runs the timers that are due (after a tick has been handled); in lockstep only those due by the tick's own
   * time: time running on past it is the replay's to cross (crossTo), after its clients have settled.
   */
  runDue(): void {
    if (!this.lockstep) {
      this.fireDue();
      return;
    }
    const holding = this.holding;
    this.holding = true;
    try {
      this.fireDue();
    } finally {
      this.holding = holding;
    }
  }

  /**
   * Lockstep on: time no longer runs past the end of the bars under way or the earliest timer by itself, and
   * timers fire only as the replay crosses them (crossTo) or after a tick; off: as before.
   */
  setLockstep(on: boolean): void {
    this.last = this.now();
    this.lastAt = this.base.now();
    this.lockstep = on;
    this.arm();
  }

  /** True when a timer is due at or before `time`. */
  dueBy(time: number): boolean {
    return this.earliestDue() <= time;
  }

  /**
   * Moves market time up to `target` through the timers due by then: `settle()` first, then for each instant a
   * timer is due at, the clock stands there while those timers fire, and `settle()` again. Time stands still
   * meanwhile (requests see the instant of the timers last fired); the next tick moves it on.
   */
  async crossTo(target: number, settle: () => Promise<void>): Promise<void> {
    this.last = this.now();
    this.holding = true;
    try {
      for (;;) {
        await settle();
        const due = this.earliestDue();
        if (due > target) return;
        this.last = Math.max(this.last, due);
        this.fireDue();
      }
    } finally {
      this.holding = false;
      this.lastAt = this.base.now();
      this.arm();
    }
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
    this.lockstep = false;
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

  /** Due time of the earliest timer not cancelled; infinity without one. */
  private earliestDue(): number {
    return this.timers.reduce((min, timer) => (timer.cancelled ? min : Math.min(min, timer.due)), Number.POSITIVE_INFINITY);
  }

  /** While paced (and not in lockstep), wakes up on the base clock when the earliest timer is due. */
  private arm(): void {
    this.wake?.cancel();
    this.wake = undefined;
    if (!this.paced || this.lockstep || this.holding) return;
    const earliest = this.earliestDue();
    if (!Number.isFinite(earliest)) return;
    const wait = Math.max(1, (earliest - this.now()) / this.speed);
    this.wake = this.base.setTimeout(() => this.fireDue(), wait);
  }
}
