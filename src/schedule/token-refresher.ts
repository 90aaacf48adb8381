// Keeps the access token fresh: refreshes it `leadMs` before it expires, retries failures on the Clock, and
// tells people (token-expiry notifications) when it cannot, and when it has expired.
import type { Clock, TimerHandle } from '../domain/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { formatDuration } from './duration.js';
import { noNotify, type Notify } from './notification.js';
import { timerAt } from './timer.js';

export interface TokenRefresherOptions {
  readonly clock: Clock;
  /** Epoch ms at which the current token expires. */
  readonly expiresAt: number;
  readonly leadMs: number;
  /** Obtains a new token (and stores it); resolves to its expiry, epoch ms. */
  readonly refresh: () => Promise<number>;
  readonly retryMs?: number;
  readonly notifier?: Notify;
  readonly logger?: Logger;
}

export class TokenRefresher {
  private timer: TimerHandle | undefined;
  private current: number;
  private expiredNotified = false;

  constructor(private readonly options: TokenRefresherOptions) {
    this.current = options.expiresAt;
  }

  get expiresAt(): number {
    return this.current;
  }

  start(): void {
    this.arm(this.current - this.options.leadMs);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private arm(atMs: number): void {
    this.timer?.cancel();
    this.timer = timerAt(this.options.clock, atMs, () => void this.attempt());
  }

  private async attempt(): Promise<void> {
    const { clock, notifier = noNotify, logger = silentLogger } = this.options;
    try {
      this.current = await this.options.refresh();
      this.expiredNotified = false;
      logger.info({ expiresAt: new Date(this.current).toISOString() }, 'access token refreshed');
      this.arm(this.current - this.options.leadMs);
    } catch (error) {
      const now = clock.now();
      const reason = (error as Error).message;
      const retryMs = this.options.retryMs ?? 3_600_000;
      if (now >= this.current) {
        if (!this.expiredNotified)
          notifier.notify({
            kind: 'token-expiry',
            message: `access token expired; refresh failed: ${reason}`,
            details: { expiresAt: this.current },
          });
        this.expiredNotified = true;
      } else {
        notifier.notify({
          kind: 'token-expiry',
          message: `access token expires in ${formatDuration(this.current - now)}; refresh failed: ${reason}; retrying in ${formatDuration(retryMs)}`,
          details: { expiresAt: this.current },
        });
      }
      logger.error({ error: reason }, 'access token refresh failed');
      this.arm(now + retryMs);
    }
  }
}
