import { describe, expect, it } from 'vitest';
import { decimalFromNumber, parseDecimal, parseOptionalDecimal, toWire } from '../../src/domain/decimal.js';

describe('decimals', () => {
  it('adds exactly where floats do not', () => {
    expect(parseDecimal('0.1').plus(parseDecimal('0.2')).toFixed()).toBe('0.3');
  });

  it('writes plain notation on the wire, never exponents', () => {
    expect(toWire(parseDecimal('1e-9'))).toBe('0.000000001');
    expect(toWire(parseDecimal('12345678901234567890.5'))).toBe('12345678901234567890.5');
  });

  it("maps the service's empty string to undefined", () => {
    expect(parseOptionalDecimal('')).toBeUndefined();
    expect(parseOptionalDecimal('1.5')?.toFixed()).toBe('1.5');
  });

  it('refuses text that is not a number, naming the field', () => {
    expect(() => parseDecimal('12,5', 'price')).toThrow(/price: "12,5" is not a decimal number/);
    expect(() => parseDecimal('NaN')).toThrow();
    expect(() => parseDecimal('Infinity')).toThrow();
  });

  it('recovers the decimal text a float price was read from', () => {
    expect(decimalFromNumber(Number('1469.25')).toFixed()).toBe('1469.25');
    expect(decimalFromNumber(Number('0.1')).toFixed()).toBe('0.1');
  });
});
