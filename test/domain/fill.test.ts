import { describe, expect, it } from 'vitest';
import { fillFromReport, type ExecutionReport } from '../../src/domain/fill.js';
import { parseSymbol } from '../../src/domain/symbol.js';
import { Price, Quantity } from '../../src/domain/index.js';

const report = (executed: string, average: string | undefined, last?: [string, string]): ExecutionReport => ({
  orderId: 'O1',
  symbol: parseSymbol('700.HK'),
  side: 'Buy',
  executedQuantity: Quantity.of(executed),
  executedPrice: average === undefined ? undefined : Price.of(average),
  lastShare: last === undefined ? undefined : Quantity.of(last[0]),
  lastPrice: last === undefined ? undefined : Price.of(last[1]),
  time: 1,
});

describe('fills from execution reports', () => {
  it('takes the fill from last_share and last_price when they match the growth', () => {
    const fill = fillFromReport(report('100', '10', ['100', '10']), Quantity.ZERO, undefined)!;
    expect([fill.fillId, fill.quantity.toFixed(), fill.price.toFixed()]).toEqual(['O1:100', '100', '10']);
  });

  it('recovers the price of a second fill from the average when the push lacks last_price', () => {
    const fill = fillFromReport(report('300', '11', undefined), Quantity.of(100), Price.of(10))!;
    expect(fill.quantity.toFixed()).toBe('200');
    expect(fill.price.toFixed()).toBe('11.5');
  });

  it('ignores a duplicated or stale report', () => {
    expect(fillFromReport(report('100', '10', ['100', '10']), Quantity.of(100), Price.of(10))).toBeUndefined();
    expect(fillFromReport(report('50', '10', ['50', '10']), Quantity.of(100), Price.of(10))).toBeUndefined();
  });
});
