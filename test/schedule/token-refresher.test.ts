import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { TokenRefresher } from '../../src/schedule/token-refresher.js';
import { RecordingNotifier } from '../support/schedule/recording-notifier.js';

const DAY = 86_400_000;
const T0 = Date.parse('2024-03-01T00:00:00Z');

describe('TokenRefresher', () => {
  it('refreshes the token the lead time before it expires, then again before the new expiry', async () => {
    const clock = new VirtualClock(T0);
    const refreshedAt: string[] = [];
    const refresher = new TokenRefresher({
      clock,
      expiresAt: T0 + 30 * DAY,
      leadMs: 7 * DAY,
      refresh: async () => {
        refreshedAt.push(new Date(clock.now()).toISOString());
        return clock.now() + 90 * DAY;
      },
    });

    refresher.start();
    await clock.advanceToAsync(T0 + 150 * DAY);
    refresher.stop();

    expect(refreshedAt).toEqual(['2024-03-24T00:00:00.000Z', '2024-06-15T00:00:00.000Z']);
    expect(refresher.expiresAt).toBe(Date.parse('2024-09-13T00:00:00Z'));
  });

  it('retries a failed refresh and notifies, then once more when the token has expired', async () => {
    const clock = new VirtualClock(T0);
    const notifier = new RecordingNotifier();
    const refresher = new TokenRefresher({
      clock,
      expiresAt: T0 + 2 * 3_600_000,
      leadMs: 3_600_000,
      retryMs: 3_600_000,
      notifier,
      refresh: async () => Promise.reject(new Error('HTTP 401')),
    });

    refresher.start();
    await clock.advanceToAsync(T0 + 4 * 3_600_000);
    refresher.stop();

    expect(notifier.sent.map((notification) => notification.message)).toEqual([
      'access token expires in 1h; refresh failed: HTTP 401; retrying in 1h',
      'access token expired; refresh failed: HTTP 401',
    ]);
    expect(notifier.kinds()).toEqual(['token-expiry', 'token-expiry']);
  });
});
