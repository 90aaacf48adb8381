// Per-interface call pacing on the injected Clock (PROTOCOL.md §3, trade: 30 calls per 30 s, ≥ 20 ms apart).
// Callers wait in FIFO order instead of being rejected; the window slides, so no burst ever exceeds the limit.
// A call counts in the window from its start until it is done and then from when it was done: the service
// counts a call when it arrives, so a slow call started early may arrive after a quick one started later, and
// a window timed from starts alone would let a call through that the service counts as one too many.
// The service counts an account's calls whichever client makes them, so the clients of one account in one
// process (a schedule's own client and each job's) can share one limiter (accountRateLimiter).
import type { Clock, TimerHandle } from '../../domain/clock.js';

export interface RateLimit {
  /** Calls allowed in any window of `windowMs`. */
  readonly calls: number;
  readonly windowMs: number;
  /** Minimum time between two calls of the same interface. */
  readonly minSpacingMs: number;
}

export const TRADE_RATE_LIMIT: RateLimit = { calls: 30, windowMs: 30_000, minSpacingMs: 20 };

interface Waiter {
  readonly grant: (done: () => void) => void;
  readonly fail: (reason: unknown) => void;
}

class Lane {
  /** When the calls inside the current window count from (their start, or once done, their end), oldest first. */
  readonly starts: number[] = [];
  readonly waiters: Waiter[] = [];
  timer: TimerHandle | undefined;
}

export class RateLimiter {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: RateLimit = TRADE_RATE_LIMIT,
  ) {}

  /**
   * Resolves when a call of `key` (e.g. "GET /v1/asset/account") may start; the start is counted then. Call
   * the function it resolves to when the call is done (answered or failed): it counts from then on.
   */
  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const lane = this.lane(key);
    return new Promise<() => void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: (done) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(done);
        },
        fail: reject,
      };
      const onAbort = (): void => {
        const index = lane.waiters.indexOf(waiter);
        if (index >= 0) lane.waiters.splice(index, 1);
        reject(signal!.reason);
        this.pump(lane);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      lane.waiters.push(waiter);
      this.pump(lane);
    });
  }

  /** Number of callers waiting for `key`. */
  waiting(key: string): number {
    return this.lanes.get(key)?.waiters.length ?? 0;
  }

  /** Rejects every waiter (the client is closing) and disarms the timers. */
  close(reason: unknown): void {
    for (const lane of this.lanes.values()) {
      lane.timer?.cancel();
      for (const waiter of lane.waiters.splice(0)) waiter.fail(reason);
    }
    this.lanes.clear();
  }

  private lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = new Lane();
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private pump(lane: Lane): void {
    lane.timer?.cancel();
    lane.timer = undefined;
    while (lane.waiters.length > 0) {
      const now = this.clock.now();
      while (lane.starts.length > 0 && lane.starts[0]! <= now - this.limit.windowMs) lane.starts.shift();
      const readyAt = this.readyAt(lane);
      if (readyAt > now) {
        lane.timer = this.clock.setTimeout(() => this.pump(lane), readyAt - now);
        return;
      }
      lane.starts.push(now);
      lane.waiters.shift()!.grant(this.doneOf(lane, now));
    }
  }

  /** Moves a call's count from its start to now, once (a call still in the window when done). */
  private doneOf(lane: Lane, start: number): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const index = lane.starts.indexOf(start);
      if (index < 0) return;
      lane.starts.splice(index, 1);
      const end = this.clock.now();
      let at = lane.starts.length;
      while (at > 0 && lane.starts[at - 1]! > end) at -= 1;
      lane.starts.splice(at, 0, end);
    };
  }

  private readyAt(lane: Lane): number {
    const last = lane.starts.at(-1);
    const spaced = last === undefined ? -Infinity : last + this.limit.minSpacingMs;
    const windowFull = lane.starts.length >= this.limit.calls;
    const windowFree = windowFull ? lane.starts[lane.starts.length - this.limit.calls]! + this.limit.windowMs : -Infinity;
    return Math.max(spaced, windowFree);
  }
}

const shared = new WeakMap<Clock, Map<string, RateLimiter>>();

/**
 * The one limiter of an account (its service URL and app key) on `clock` in this process, made on first use:
 * clients that pass it to their transport pace their calls together, as the service counts them.
 */
export function accountRateLimiter(
  clock: Clock,
  account: { readonly httpUrl: string; readonly appKey: string },
  limit: RateLimit = TRADE_RATE_LIMIT,
): RateLimiter {
  let limiters = shared.get(clock);
  if (limiters === undefined) {
    limiters = new Map();
    shared.set(clock, limiters);
  }
  const key = `${account.httpUrl} ${account.appKey} ${limit.calls}/${limit.windowMs}/${limit.minSpacingMs}`;
  let limiter = limiters.get(key);
  if (limiter === undefined) {
    limiter = new RateLimiter(clock, limit);
    limiters.set(key, limiter);
  }
  return limiter;
}
