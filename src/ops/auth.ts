// Who may use the dashboard: the request's bearer token compared in constant time, and repeated bad tokens
// from one address slowed down: from the fifth failure on, the answer to a bad token waits (500 ms, doubling
// to at most 30 s) and every other request from that address meanwhile is refused unchecked (429), so
// guessing gets a few verdicts a minute at most. Failures are forgotten after a quiet quarter of an hour.
// Pure logic on times the caller reads from its clock.
import { createHash, timingSafeEqual } from 'node:crypto';

export interface ThrottleSettings {
  /** Bad tokens answered at once before the delays start. */
  readonly freeFailures?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Failures are forgotten after this long without one. */
  readonly forgetAfterMs?: number;
}

interface Failures {
  count: number;
  lastAt: number;
  /** Until when the address gets no verdict. */
  until: number;
}

export class AuthThrottle {
  private readonly records = new Map<string, Failures>();
  private readonly free: number;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly forgetMs: number;

  constructor(settings: ThrottleSettings = {}) {
    this.free = settings.freeFailures ?? 4;
    this.baseMs = settings.baseDelayMs ?? 500;
    this.maxMs = settings.maxDelayMs ?? 30_000;
    this.forgetMs = settings.forgetAfterMs ?? 15 * 60_000;
  }

  /** Records a bad token from `address` at `now`; returns how long to wait before answering it. */
  failed(address: string, now: number): number {
    const record = this.current(address, now) ?? { count: 0, lastAt: now, until: now };
    record.count += 1;
    record.lastAt = now;
    const over = record.count - this.free;
    const delay = over <= 0 ? 0 : Math.min(this.maxMs, this.baseMs * 2 ** (over - 1));
    record.until = now + delay;
    this.records.set(address, record);
    if (this.records.size > 10_000) this.prune(now);
    return delay;
  }

  /** How long `address` must still wait for any verdict (0: check its token now). */
  blockedFor(address: string, now: number): number {
    const record = this.current(address, now);
    return record === undefined ? 0 : Math.max(0, record.until - now);
  }

  /** A good token: the address's failures are forgotten. */
  succeeded(address: string): void {
    this.records.delete(address);
  }

  private current(address: string, now: number): Failures | undefined {
    const record = this.records.get(address);
    if (record === undefined) return undefined;
    if (now - record.lastAt >= this.forgetMs && now >= record.until) {
      this.records.delete(address);
      return undefined;
    }
    return record;
  }

  private prune(now: number): void {
    for (const [address] of this.records) this.current(address, now);
  }
}

/** The token of an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Constant-time comparison (of digests, so lengths leak nothing either). */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
