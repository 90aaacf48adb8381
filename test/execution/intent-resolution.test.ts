import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../src/domain/index.js';
import { resolveIntent } from '../../src/execution/intent-resolution.js';
import { Fixed, Price, Quantity } from '../../src/domain/index.js';

const AAPL = parseSymbol('AAPL.US');
const quantityOf = (resolution: ReturnType<typeof resolveIntent>): string =>
  resolution.kind === 'order' ? `${resolution.request.side} ${resolution.request.quantity.toFixed()}` : resolution.kind;

describe('intent resolution', () => {
  it('makes a market order of an unpriced intent and a limit order of a priced one, carrying the client order id', () => {
    expect(resolveIntent({ kind: 'order', symbol: AAPL, side: 'Buy', quantity: Quantity.of(5) }, Quantity.ZERO, 'lt-a-1')).toMatchObject({
      kind: 'order',
      request: { orderType: 'MO', timeInForce: 'Day', remark: 'lt-a-1' },
    });
    expect(
      resolveIntent(
        { kind: 'order', symbol: AAPL, side: 'Sell', quantity: Quantity.of(5), price: Price.of('9.5') },
        Quantity.ZERO,
        'lt-a-2',
      ),
    ).toMatchObject({
      request: { orderType: 'LO' },
    });
  });

  it('closes a long or a short position with the opposite side', () => {
    expect(quantityOf(resolveIntent({ kind: 'close', symbol: AAPL }, Quantity.of(30), 'r'))).toBe('Sell 30');
    expect(quantityOf(resolveIntent({ kind: 'close', symbol: AAPL }, Quantity.of(-12.5), 'r'))).toBe('Buy 12.5');
  });

  it('moves a position to its target', () => {
    expect(quantityOf(resolveIntent({ kind: 'target', symbol: AAPL, quantity: Quantity.of(100) }, Quantity.of(30), 'r'))).toBe('Buy 70');
    expect(quantityOf(resolveIntent({ kind: 'target', symbol: AAPL, quantity: Quantity.of(-10) }, Quantity.of(30), 'r'))).toBe('Sell 40');
  });

  it('skips a close when flat and a target already reached', () => {
    expect(resolveIntent({ kind: 'close', symbol: AAPL }, Quantity.ZERO, 'r')).toEqual({ kind: 'skip', reason: 'already flat in AAPL.US' });
    expect(resolveIntent({ kind: 'target', symbol: AAPL, quantity: Quantity.of(5) }, Quantity.of(5), 'r')).toEqual({
      kind: 'skip',
      reason: 'already at 5 AAPL.US',
    });
  });

  it('aims close and target at the position that orders still working will leave', () => {
    const working = Quantity.of(-4);
    expect(quantityOf(resolveIntent({ kind: 'close', symbol: AAPL }, Quantity.of(10), 'r', working))).toBe('Sell 6');
    expect(quantityOf(resolveIntent({ kind: 'target', symbol: AAPL, quantity: Quantity.of(20) }, Quantity.of(10), 'r', working))).toBe(
      'Buy 14',
    );
    expect(resolveIntent({ kind: 'close', symbol: AAPL }, Quantity.of(4), 'r', working)).toEqual({
      kind: 'skip',
      reason: 'already flat in AAPL.US counting -4 in working orders',
    });
    expect(resolveIntent({ kind: 'target', symbol: AAPL, quantity: Quantity.of(10) }, Quantity.ZERO, 'r', Quantity.of(10))).toEqual({
      kind: 'skip',
      reason: 'already at 10 AAPL.US counting 10 in working orders',
    });
    expect(
      quantityOf(resolveIntent({ kind: 'order', symbol: AAPL, side: 'Buy', quantity: Quantity.of(3) }, Quantity.ZERO, 'r', working)),
    ).toBe('Buy 3');
  });

  it('refuses order types without the prices they need', () => {
    expect(
      resolveIntent({ kind: 'order', symbol: AAPL, side: 'Buy', quantity: Quantity.of(1), orderType: 'LO' }, Quantity.ZERO, 'r'),
    ).toEqual({
      kind: 'invalid',
      reason: 'LO orders need a price',
    });
    expect(
      resolveIntent({ kind: 'order', symbol: AAPL, side: 'Buy', quantity: Quantity.of(1), orderType: 'MIT' }, Quantity.ZERO, 'r'),
    ).toEqual({
      kind: 'invalid',
      reason: 'MIT orders need a trigger price',
    });
    expect(resolveIntent({ kind: 'close', symbol: AAPL, timeInForce: 'GTD' }, Quantity.of(1), 'r')).toEqual({
      kind: 'invalid',
      reason: 'GTD orders need an expire date',
    });
  });

  it("carries a trailing order's amount or percent and limit offset to the request, and refuses one without them", () => {
    const sell = { kind: 'order', symbol: AAPL, side: 'Sell', quantity: Quantity.of(5) } as const;
    expect(
      resolveIntent({ ...sell, orderType: 'TSLPAMT', trailingAmount: Price.of(3), limitOffset: Price.of('0.1') }, Quantity.of(5), 'r'),
    ).toMatchObject({ kind: 'order', request: { orderType: 'TSLPAMT', trailingAmount: Price.of(3), limitOffset: Price.of('0.1') } });
    expect(
      resolveIntent({ kind: 'close', symbol: AAPL, orderType: 'TSLPPCT', trailingPercent: Fixed.of(2) }, Quantity.of(5), 'r'),
    ).toMatchObject({ kind: 'order', request: { side: 'Sell', orderType: 'TSLPPCT', trailingPercent: Fixed.of(2) } });
    expect(resolveIntent({ ...sell, orderType: 'TSLPAMT' }, Quantity.of(5), 'r')).toEqual({
      kind: 'invalid',
      reason: 'TSLPAMT orders need a trailing amount',
    });
    expect(resolveIntent({ ...sell, orderType: 'TSLPPCT' }, Quantity.of(5), 'r')).toEqual({
      kind: 'invalid',
      reason: 'TSLPPCT orders need a trailing percent',
    });
  });
});
