import { describe, expect, it } from 'vitest';
import { Price } from '../../src/domain/price.js';
import { instrumentOf, wholeLots } from '../../src/domain/instrument.js';
import { parseSymbol } from '../../src/domain/symbol.js';
import { isOnTick, parseTickRule, tickNeighbours, tickSizeAt } from '../../src/domain/tick-rules.js';

const d = (text: string): Price => Price.of(text);

describe('tick rules', () => {
  it('steps Hong Kong prices by the spread table band', () => {
    const cases: [string, string][] = [
      ['0.2', '0.001'],
      ['0.25', '0.001'],
      ['0.3', '0.005'],
      ['5', '0.01'],
      ['15', '0.02'],
      ['50', '0.05'],
      ['150', '0.1'],
      ['300', '0.2'],
      ['600', '0.5'],
      ['1500', '1'],
      ['3000', '2'],
      ['6000', '5'],
    ];
    for (const [price, tick] of cases) expect(tickSizeAt('hk-spread-table', d(price)).toString(), price).toBe(tick);
  });

  it('accepts band bounds and refuses prices between the steps of their band', () => {
    expect(isOnTick('hk-spread-table', d('20'))).toBe(true);
    expect(isOnTick('hk-spread-table', d('20.02'))).toBe(false);
    expect(isOnTick('hk-spread-table', d('20.05'))).toBe(true);
    expect(isOnTick('hk-spread-table', d('350.3'))).toBe(false);
    expect(isOnTick('hk-spread-table', d('350.4'))).toBe(true);
    const { below, above } = tickNeighbours('hk-spread-table', d('350.3'));
    expect([below.toString(), above.toString()]).toEqual(['350.2', '350.4']);
  });

  it('steps US prices by 0.01 from 1 USD and by 0.0001 below', () => {
    expect(isOnTick('us-stock', d('1.005'))).toBe(false);
    expect(isOnTick('us-stock', d('1.01'))).toBe(true);
    expect(isOnTick('us-stock', d('0.9999'))).toBe(true);
    expect(isOnTick('us-stock', d('0.12345'))).toBe(false);
  });

  it('steps Singapore prices by 0.001 below 0.20, 0.005 below 1 and 0.01 from 1, China A shares by 0.01', () => {
    expect(isOnTick('sg-stock', d('0.199'))).toBe(true);
    expect(isOnTick('sg-stock', d('0.201'))).toBe(false);
    expect(isOnTick('sg-stock', d('0.205'))).toBe(true);
    expect(isOnTick('sg-stock', d('1.005'))).toBe(false);
    expect(isOnTick('cn-stock', d('12.34'))).toBe(true);
    expect(isOnTick('cn-stock', d('12.345'))).toBe(false);
  });

  it('parses named tables and fixed steps, and nothing else', () => {
    expect(parseTickRule('hk-spread-table')).toBe('hk-spread-table');
    expect(parseTickRule('0.005')).toEqual({ fixed: Price.of('0.005') });
    expect(parseTickRule('0')).toBeUndefined();
    expect(parseTickRule('cents')).toBeUndefined();
  });
});

describe('instruments', () => {
  it('take their market defaults for what no source names', () => {
    expect(instrumentOf(parseSymbol('700.HK'))).toMatchObject({ lotSize: 100, tick: 'hk-spread-table', currency: 'HKD' });
    expect(instrumentOf(parseSymbol('AAPL.US'))).toMatchObject({ lotSize: 1, tick: 'us-stock', currency: 'USD', fractionalShares: false });
    expect(instrumentOf(parseSymbol('600519.CN'))).toMatchObject({ lotSize: 100, tick: 'cn-stock', currency: 'CNY' });
    expect(instrumentOf(parseSymbol('D05.SG'))).toMatchObject({ lotSize: 100, tick: 'sg-stock', currency: 'SGD' });
    expect(instrumentOf(parseSymbol('5.HK'), { lotSize: 400, name: 'HSBC' })).toMatchObject({ lotSize: 400, name: 'HSBC' });
  });

  it('round quantities down to whole lots', () => {
    expect(wholeLots({ lotSize: 100 }, 250)).toBe(200);
    expect(wholeLots({ lotSize: 100 }, 99)).toBe(0);
    expect(wholeLots({ lotSize: 1 }, 7.9)).toBe(7);
  });
});
