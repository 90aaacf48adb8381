import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { RateLimiter } from '../../../src/openapi/http/rate-limiter.js';

/** Acquires `count` slots for `key` and records the virtual time each was granted. */
function acquireMany(limiter: RateLimiter, clock: VirtualClock, key: string, count: number): number[] {
  const grantedAt: number[] = [];
  for (let index = 0; index < count; index += 1) void limiter.acquire(key).then(() => grantedAt.push(clock.now()));
  return grantedAt;
}

describe('rate limiter', () => {
  it('spaces calls of one interface at least 20 ms apart, in arrival order', async () => {
    const clock = new VirtualClock(1_000);
    const limiter = new RateLimiter(clock);
    const grantedAt = acquireMany(limiter, clock, 'GET /a', 4);
    await clock.advanceByAsync(100);
    expect(grantedAt).toEqual([1_000, 1_020, 1_040, 1_060]);
  });

  it('queues the 31st call of a 30 s window until the first call leaves the window', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock);
    const grantedAt = acquireMany(limiter, clock, 'POST /v1/trade/order', 32);
    await clock.advanceByAsync(29_999);
    expect(grantedAt).toHaveLength(30);
    expect(grantedAt[29]).toBe(580);
    expect(limiter.waiting('POST /v1/trade/order')).toBe(2);
    await clock.advanceByAsync(1_000);
    expect(grantedAt.slice(30)).toEqual([30_000, 30_020]);
  });

  it('never rejects a caller, however many queue', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock);
    const grantedAt = acquireMany(limiter, clock, 'GET /a', 95);
    await clock.advanceByAsync(120_000);
    expect(grantedAt).toHaveLength(95);
    for (let index = 30; index < 95; index += 1) expect(grantedAt[index]! - grantedAt[index - 30]!).toBeGreaterThanOrEqual(30_000);
  });

  it('counts a call from when it is done: a slow call started first keeps its place past a quick one started after it', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock, { calls: 2, windowMs: 1_000, minSpacingMs: 0 });
    const slow = await limiter.acquire('k');
    const quick = await limiter.acquire('k');
    const third = acquireMany(limiter, clock, 'k', 1);
    await clock.advanceByAsync(20);
    quick();
    await clock.advanceByAsync(280);
    slow();
    await clock.advanceByAsync(2_000);
    // The service may count the slow call as arriving after the quick one: the window frees at the quick call's end.
    expect(third).toEqual([1_020]);
  });

  it('keeps interfaces independent', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock);
    const first = acquireMany(limiter, clock, 'GET /a', 2);
    const second = acquireMany(limiter, clock, 'GET /b', 1);
    await clock.advanceByAsync(0);
    expect(first).toEqual([0]);
    expect(second).toEqual([0]);
  });

  it('lets a caller give up while queued without holding up the others', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock);
    void limiter.acquire('k');
    const controller = new AbortController();
    const abandoned = limiter.acquire('k', controller.signal);
    const grantedAt = acquireMany(limiter, clock, 'k', 1);
    controller.abort(new Error('gave up'));
    await expect(abandoned).rejects.toThrow('gave up');
    await clock.advanceByAsync(20);
    expect(grantedAt).toEqual([20]);
  });

  it('fails queued callers when closed', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock);
    void limiter.acquire('k');
    const queued = limiter.acquire('k');
    limiter.close(new Error('closed'));
    await expect(queued).rejects.toThrow('closed');
    expect(clock.pendingTimers).toBe(0);
  });
});
