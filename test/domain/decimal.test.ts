import { describe, expect, it } from 'vitest';
import { decimalOf, parseDecimal, parseOptionalDecimal, toWire } from '../../src/domain/decimal.js';
import { Price } from '../../src/domain/price.js';

describe('decimals at the edges', () => {
  it('writes plain notation on the wire, never exponents', () => {
    expect(toWire(parseDecimal('1e-9'))).toBe('0.000000001');
    expect(toWire(parseDecimal('12345678901234567890.5'))).toBe('12345678901234567890.5');
    expect(toWire(Price.of('1e-9'))).toBe('0.000000001');
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

  it('turns a fixed-point value into the same Decimal', () => {
    expect(decimalOf(Price.of('1469.250')).toFixed()).toBe('1469.25');
  });
});
