import { describe, expect, it } from 'vitest';
import { encodeQuery, encodeQueryComponent } from '../../../src/openapi/http/query.js';

describe('query encoding', () => {
  it('keeps the parameter order and repeats keys for arrays', () => {
    expect(encodeQuery({ symbol: ['700.HK', 'BABA.US'], currency: 'HKD' })).toBe('symbol=700.HK&symbol=BABA.US&currency=HKD');
    expect(encodeQuery({ b: '1', a: '2' })).toBe('b=1&a=2');
  });

  it('leaves out undefined values and empty arrays', () => {
    expect(encodeQuery({ a: undefined, b: [], c: 'x' })).toBe('c=x');
    expect(encodeQuery({})).toBe('');
  });

  it('writes numbers and booleans as text', () => {
    expect(encodeQuery({ start_at: 1700000000, fractional_shares: false })).toBe('start_at=1700000000&fractional_shares=false');
  });

  it('percent-encodes everything but A-Za-z0-9*-._ and writes space as +', () => {
    expect(encodeQueryComponent('a b&c=d+e')).toBe('a+b%26c%3Dd%2Be');
    expect(encodeQueryComponent('AZaz09*-._')).toBe('AZaz09*-._');
    expect(encodeQueryComponent("~!'()/:?#%")).toBe('%7E%21%27%28%29%2F%3A%3F%23%25');
    expect(encodeQueryComponent('2025-03-04T05:06:07Z')).toBe('2025-03-04T05%3A06%3A07Z');
  });

  it('encodes unicode as UTF-8 bytes in upper-case hex', () => {
    expect(encodeQueryComponent('腾讯')).toBe('%E8%85%BE%E8%AE%AF');
    expect(encodeQueryComponent('é😀')).toBe('%C3%A9%F0%9F%98%80');
  });
});
