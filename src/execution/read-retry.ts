// Reads from the broker (lists, positions, balances, socket tokens) are safe to repeat: a transient failure
// (a 5xx, a rate limit, a timeout, a dropped connection) is retried with back-off on the injected clock,
// and a read that still fails names the call, so "internal error (500000)" says where it happened.
import { sleep } from '../clock/sleep.js';
import { TraderError, type Clock } from '../domain/index.js';
import type { Logger } from '../log/logger.js';
import { RequestTimeoutError, withTimeout } from './with-timeout.js';

/** Waits before the 2nd, 3rd… attempt: five attempts over about 7.5 s. */
export const READ_RETRY_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 4_000];

export interface ReadSettings {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Per attempt; none when the call keeps its own timeout. */
  readonly timeoutMs?: number;
  readonly delaysMs?: readonly number[];
  /** Stops the retries: a read waiting to be repeated fails with the abort's reason. */
  readonly signal?: AbortSignal;
}

/** A read that failed for good; its message names the call (`GET /v1/asset/account`) and what it was for. */
export class ReadFailedError extends TraderError {
  constructor(
    readonly what: string,
    readonly attempts: number,
    cause: unknown,
  ) {
    const request = requestOf(cause);
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    super(
      cause instanceof TraderError ? cause.code : 'READ_FAILED',
      `${what}${request === undefined ? '' : ` (${request})`} failed${tries}: ${describe(cause)}`,
      { cause },
    );
  }
}

export async function readWithRetry<T>(read: () => Promise<T>, what: string, settings: ReadSettings): Promise<T> {
  const delays = settings.delaysMs ?? READ_RETRY_DELAYS_MS;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = attempted(read);
      return await (settings.timeoutMs === undefined ? answer : withTimeout(answer, settings.clock, settings.timeoutMs, what));
    } catch (error) {
      const delay = delays[attempt - 1];
      if (delay === undefined || !isTransient(error)) throw new ReadFailedError(what, attempt, error);
      settings.logger.warn({ read: what, request: requestOf(error), attempt, delayMs: delay, error: describe(error) }, `${what}: retrying`);
      await sleep(settings.clock, delay, settings.signal);
    }
  }
}

/** True for failures that say "not now": the service's retryable codes and statuses, timeouts, lost connections. */
export function isTransient(error: unknown): boolean {
  if (error instanceof RequestTimeoutError) return true;
  return typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
}

function attempted<T>(read: () => Promise<T>): Promise<T> {
  try {
    return read();
  } catch (error) {
    return Promise.reject(error);
  }
}

function requestOf(error: unknown): string | undefined {
  const request = typeof error === 'object' && error !== null ? (error as { request?: unknown }).request : undefined;
  return typeof request === 'string' ? request : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
