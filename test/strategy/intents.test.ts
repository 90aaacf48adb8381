import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../src/domain/symbol.js';
import { createIntentHelpers, toSymbol } from '../../src/strategy/intents.js';

const DEFAULT = parseSymbol('SPY.US');

describe('the symbol of an intent', () => {
  it('is the strategy’s first symbol unless one is given, and a given one reads as parseSymbol reads it, every time', () => {
    expect(toSymbol(undefined, DEFAULT)).toBe('SPY.US');
    for (let round = 0; round < 3; round += 1) {
      expect(toSymbol('0700.hk', DEFAULT)).toBe('700.HK');
      expect(toSymbol(' aapl.us ', DEFAULT)).toBe('AAPL.US');
      expect(toSymbol('BRK.B.US', DEFAULT)).toBe('BRK.B.US');
    }
  });

  it('refuses a bad symbol each time it is given, naming it', () => {
    for (let round = 0; round < 2; round += 1) expect(() => toSymbol('AAPL.XX', DEFAULT)).toThrow(/symbol "AAPL.XX": unknown market "XX"/);
  });

  it('is read for buy, close and cancel alike', () => {
    const helpers = createIntentHelpers(DEFAULT);
    expect(helpers.buy(1, { symbol: '0005.HK' }).symbol).toBe('5.HK');
    expect(helpers.close({ symbol: '0005.HK' }).symbol).toBe('5.HK');
    expect(helpers.cancel('0005.HK').symbol).toBe('5.HK');
    expect(helpers.cancel().symbol).toBeUndefined();
    expect(() => helpers.close({ symbol: 'nope' })).toThrow(/must look like CODE.MARKET/);
  });
});
