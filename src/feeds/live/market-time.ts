// Estimated market time: the injected clock plus the offset learned from the newest quote timestamp. Live it
// is ≈ the clock; while a simulator replays the year 2000 it is the replay's time, so bars close on the
// replay's schedule, not today's. A clock that is the market's own (an in-process replay's) learns nothing:
// quote timestamps carry whole seconds and arrive after their instant, so an offset would only make it lag.
import type { Clock } from '../../domain/clock.js';

export class MarketTime {
  private offsetMs = 0;
  private newest = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    /** False when `clock` is the market's own clock. */
    private readonly learn = true,
  ) {}

  /** Learns from a tick's timestamp (epoch ms); older ticks (late or out of order) teach nothing. */
  observe(timestamp: number): void {
    if (!this.learn || timestamp < this.newest) return;
    this.newest = timestamp;
    this.offsetMs = timestamp - this.clock.now();
  }

  now(): number {
    return this.clock.now() + this.offsetMs;
  }

  /** Clock milliseconds until the market reaches `instant` (at the current pace estimate). */
  delayUntil(instant: number): number {
    return Math.max(0, instant - this.now());
  }
}
