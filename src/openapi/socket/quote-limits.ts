// The quote connection's call budget: 10 calls/s and 5 in flight overall, 60 history-candlestick calls per
// 30 s (PROTOCOL.md §3), tightened per command by the rate_limit entries of the quote profile (cmd 4).
import type { Clock } from '../../domain/clock.js';
import { sleep } from '../../clock/sleep.js';
import { QUOTE_COMMANDS } from './commands.js';
import { SocketResponseError } from './errors.js';
import type { RateLimitEntry } from './messages.js';
import { CallWindow, ConcurrencyLimit, windowFromProfile } from './rate-limit.js';

/** The service's code for a call refused for its rate (PROTOCOL.md). */
const RATE_LIMITED = 301606;
const RATE_LIMIT_RETRIES = 5;

export class QuoteLimits {
  private readonly overall: CallWindow;
  private readonly inFlight = new ConcurrencyLimit(5);
  private readonly documented = new Map<number, CallWindow>();
  private profiled = new Map<number, CallWindow>();

  constructor(private readonly clock: Clock) {
    this.overall = new CallWindow(clock, 10, 1_000);
    this.documented.set(QUOTE_COMMANDS.historyCandlesticks, new CallWindow(clock, 60, 30_000));
  }

  /** Replaces the per-command limits with the profile's entries. */
  applyProfile(entries: readonly RateLimitEntry[]): void {
    const next = new Map<number, CallWindow>();
    for (const entry of entries) {
      const window = windowFromProfile(this.clock, entry.limit, entry.burst);
      if (window !== undefined) next.set(entry.command, window);
    }
    this.profiled = next;
  }

  /**
   * Runs one call of `cmd` once every applicable window has room and fewer than 5 calls are in flight. A call
   * the service refuses as rate limited (301606: other connections of the account spent the budget) is made
   * again after 1, 2, 4, 8 and 16 s, long enough for the 30-s history window to pass.
   */
  async run<T>(cmd: number, call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      await this.documented.get(cmd)?.acquire();
      await this.profiled.get(cmd)?.acquire();
      await this.overall.acquire();
      try {
        return await this.inFlight.run(call);
      } catch (error) {
        // The code is a uint64 on the wire: compared as a number.
        if (!(error instanceof SocketResponseError && Number(error.serviceCode) === RATE_LIMITED) || attempt >= RATE_LIMIT_RETRIES)
          throw error;
        await sleep(this.clock, 1_000 * 2 ** attempt);
      }
    }
  }
}
