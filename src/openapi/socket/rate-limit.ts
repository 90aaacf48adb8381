// Call-rate guards on the injected clock: at most N calls in any window of W ms (FIFO waiting), and a cap on
// calls in flight. The quote connection stacks them: 10 calls/s and 5 concurrent for everything, 60 per 30 s
// for history candlesticks, plus whatever the quote profile (cmd 4) says per command.
import type { Clock, TimerHandle } from '../../domain/clock.js';

export class CallWindow {
  /** Start times of the calls inside the current window, oldest first. */
  private readonly stamps: number[] = [];
  private readonly waiting: (() => void)[] = [];
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    readonly calls: number,
    readonly windowMs: number,
  ) {
    if (!(calls >= 1) || !(windowMs > 0))
      throw new RangeError(`a call window needs calls >= 1 and a positive window (got ${calls} per ${windowMs} ms)`);
  }

  /** Resolves when one more call fits in the window; the call counts from that moment. */
  acquire(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.drain();
    });
  }

  private drain(): void {
    const now = this.clock.now();
    while (this.stamps.length > 0 && this.stamps[0]! <= now - this.windowMs) this.stamps.shift();
    while (this.waiting.length > 0 && this.stamps.length < this.calls) {
      this.stamps.push(now);
      this.waiting.shift()!();
    }
    if (this.waiting.length > 0 && this.timer === undefined) {
      this.timer = this.clock.setTimeout(
        () => {
          this.timer = undefined;
          this.drain();
        },
        this.stamps[0]! + this.windowMs - now,
      );
    }
  }
}

export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}

/** The profile's `rate_limit{limit, burst}`: `burst` calls at once, `limit` per second on average. */
export function windowFromProfile(clock: Clock, limit: number, burst: number): CallWindow | undefined {
  if (!(limit > 0)) return undefined;
  const calls = Math.max(1, burst > 0 ? burst : limit);
  return new CallWindow(clock, calls, (calls / limit) * 1000);
}
