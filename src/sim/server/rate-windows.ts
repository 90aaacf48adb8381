// Server-side call limits (PROTOCOL.md §3: 30 calls per 30 s per HTTP interface, 10 quote calls per second): a sliding window of call times
// per key on the simulator's clock; a call beyond it is refused (429002), never queued.
import type { Clock } from '../../domain/clock.js';

export interface CallLimit {
  readonly calls: number;
  readonly windowMs: number;
}

export const DEFAULT_HTTP_LIMIT: CallLimit = { calls: 30, windowMs: 30_000 };

export class RateWindows {
  private readonly windows = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: CallLimit,
  ) {}

  /** Counts a call of `key` and says whether it fits. */
  take(key: string): boolean {
    const now = this.clock.now();
    let stamps = this.windows.get(key);
    if (stamps === undefined) {
      stamps = [];
      this.windows.set(key, stamps);
    }
    while (stamps.length > 0 && stamps[0]! <= now - this.limit.windowMs) stamps.shift();
    if (stamps.length >= this.limit.calls) return false;
    stamps.push(now);
    return true;
  }
}
