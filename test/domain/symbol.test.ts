import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/domain/errors.js';
import { marketOf, parseSymbol } from '../../src/domain/symbol.js';

describe('parseSymbol', () => {
  it('accepts CODE.MARKET for every market and upper-cases it', () => {
    expect(parseSymbol('aapl.us')).toBe('AAPL.US');
    expect(parseSymbol('700.HK')).toBe('700.HK');
    expect(parseSymbol('600519.CN')).toBe('600519.CN');
    expect(parseSymbol('D05.SG')).toBe('D05.SG');
  });

  it('drops leading zeros of HK numeric codes, as the service names them', () => {
    expect(parseSymbol('0700.HK')).toBe('700.HK');
    expect(parseSymbol('00005.HK')).toBe('5.HK');
  });

  it('keeps dotted codes and index symbols', () => {
    expect(parseSymbol('BRK.B.US')).toBe('BRK.B.US');
    expect(parseSymbol('.SPX.US')).toBe('.SPX.US');
    expect(marketOf(parseSymbol('BRK.B.US'))).toBe('US');
  });

  it('names the market of every kind of symbol', () => {
    for (const [text, market] of [
      ['700.HK', 'HK'],
      ['AAPL.US', 'US'],
      ['.SPX.US', 'US'],
      ['600519.CN', 'CN'],
      ['D05.SG', 'SG'],
      ['BRK.B.US', 'US'],
      ['A.HK', 'HK'],
    ] as const) {
      expect(marketOf(parseSymbol(text))).toBe(market);
    }
  });

  it.each(['AAPL', '700.XX', '.US', 'A A.US', '', 'TOO-LONG-CODE-FOR-ANY-MARKET.US'])(
    'refuses %j with an error naming the field',
    (text) => {
      expect(() => parseSymbol(text)).toThrow(InvalidInputError);
      try {
        parseSymbol(text);
      } catch (error) {
        expect((error as InvalidInputError).field).toBe('symbol');
      }
    },
  );
});
