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

describe('trailing orders', () => {
  it('carry their trailing amount or percent and limit offset into buy, sell, close and target intents', () => {
    const helpers = createIntentHelpers(DEFAULT);
    const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
    expect(wire(helpers.sell(10, { orderType: 'TSLPAMT', trailingAmount: 3, limitOffset: '0.05' }))).toMatchObject({
      orderType: 'TSLPAMT',
      trailingAmount: '3',
      limitOffset: '0.05',
    });
    expect(wire(helpers.buy(10, { orderType: 'TSLPPCT', trailingPercent: 2.5 }))).toMatchObject({ trailingPercent: '2.5' });
    expect(wire(helpers.close({ orderType: 'TSLPPCT', trailingPercent: 1 }))).toMatchObject({ trailingPercent: '1' });
    expect(wire(helpers.target(5, { orderType: 'TSLPAMT', trailingAmount: '0.5' }))).toMatchObject({ trailingAmount: '0.5' });
  });
});
