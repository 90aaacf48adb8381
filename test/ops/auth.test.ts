import { describe, expect, it } from 'vitest';
import { AuthThrottle, bearerToken, tokenMatches } from '../../src/ops/auth.js';

describe('AuthThrottle', () => {
  it('answers the first four bad tokens at once, then waits twice as long each time, at most 30 s', () => {
    const throttle = new AuthThrottle();
    const delays = Array.from({ length: 12 }, (_, attempt) => throttle.failed('10.0.0.1', attempt * 60_000));
    expect(delays).toEqual([0, 0, 0, 0, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it('refuses every request from the address while its last bad token waits, and counts addresses apart', () => {
    const throttle = new AuthThrottle({ freeFailures: 1, baseDelayMs: 1000 });
    throttle.failed('a', 0);
    expect(throttle.failed('a', 10)).toBe(1000);
    expect(throttle.blockedFor('a', 10)).toBe(1000);
    expect(throttle.blockedFor('a', 900)).toBe(110);
    expect(throttle.blockedFor('a', 1010)).toBe(0);
    expect(throttle.blockedFor('b', 10)).toBe(0);
    expect(throttle.failed('b', 10)).toBe(0);
  });

  it('forgets failures after a quiet quarter of an hour, and after a good token', () => {
    const throttle = new AuthThrottle({ freeFailures: 1 });
    throttle.failed('a', 0);
    throttle.failed('a', 1);
    expect(throttle.failed('a', 15 * 60_000 + 1)).toBe(0);
    throttle.failed('a', 15 * 60_000 + 2);
    throttle.succeeded('a');
    expect(throttle.failed('a', 15 * 60_000 + 3)).toBe(0);
  });
});

describe('tokens', () => {
  it('reads a bearer token from the Authorization header only', () => {
    expect(bearerToken('Bearer abc.DEF-123')).toBe('abc.DEF-123');
    expect(bearerToken('bearer   xyz  ')).toBe('xyz');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
  });

  it('matches only the exact token', () => {
    expect(tokenMatches('secret-token-123', 'secret-token-123')).toBe(true);
    expect(tokenMatches('secret-token-12', 'secret-token-123')).toBe(false);
    expect(tokenMatches('', 'secret-token-123')).toBe(false);
    expect(tokenMatches(undefined, 'secret-token-123')).toBe(false);
  });
});
