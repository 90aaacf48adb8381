import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { ReadFailedError, readWithRetry } from '../../src/execution/read-retry.js';
import { silentLogger } from '../../src/log/logger.js';
import { ServiceError } from '../../src/openapi/http/errors.js';

const transient = (): ServiceError =>
  new ServiceError(500000, 'internal error', { request: 'GET /v1/asset/stock', httpStatus: 500, traceId: undefined, retryable: true });

describe('reads retried on transient failures', () => {
  it('retries a transient failure after the back-off delays, on the clock', async () => {
    const clock = new VirtualClock(0);
    let calls = 0;
    const read = readWithRetry(
      async () => {
        calls += 1;
        if (calls < 3) throw transient();
        return 'positions';
      },
      'positions',
      { clock, logger: silentLogger, delaysMs: [500, 1_000] },
    );
    await clock.advanceByAsync(1_499);
    expect(calls).toBe(2);
    await clock.advanceByAsync(1);

    expect(await read).toBe('positions');
    expect(calls).toBe(3);
  });

  it('fails at once on a failure that is not transient, naming the read', async () => {
    const clock = new VirtualClock(0);
    const refused = new ServiceError(401004, 'token invalid', {
      request: 'GET /v1/asset/account',
      httpStatus: 401,
      traceId: undefined,
      retryable: false,
    });

    const read = readWithRetry(() => Promise.reject(refused), 'account balance', { clock, logger: silentLogger });

    await expect(read).rejects.toBeInstanceOf(ReadFailedError);
    await expect(read).rejects.toMatchObject({
      code: 'TOKEN_INVALID',
      message: 'account balance (GET /v1/asset/account) failed: token invalid (401004): check LONGPORT_ACCESS_TOKEN',
    });
  });

  it('counts a read that never answers as transient, within its timeout', async () => {
    const clock = new VirtualClock(0);
    const read = readWithRetry(() => new Promise<never>(() => undefined), "today's orders", {
      clock,
      logger: silentLogger,
      timeoutMs: 1_000,
      delaysMs: [100],
    });
    const failed = expect(read).rejects.toThrow("today's orders failed after 2 attempts: today's orders: no response after 1000 ms");

    await clock.advanceByAsync(2_100);
    await failed;
  });
});
