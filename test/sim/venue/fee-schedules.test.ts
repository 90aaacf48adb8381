import { describe, expect, it } from 'vitest';
import type { Side } from '../../../src/domain/order-types.js';
import {
  byMarketFeeModel,
  commissionRate,
  HK_STOCK_SCHEDULE,
  scheduleFeeModel,
  US_STOCK_SCHEDULE,
  type FeeModel,
} from '../../../src/sim/venue/index.js';
import { HK, US } from './fixtures.js';
import { Money, Price, Quantity } from '../../../src/domain/index.js';

function fees(model: FeeModel, symbol: typeof HK, side: Side, quantity: number, price: string) {
  const q = Quantity.of(quantity);
  const currency = symbol === HK ? 'HKD' : 'USD';
  return model.orderFees({
    symbol,
    market: symbol === HK ? 'HK' : 'US',
    side,
    quantity: q,
    value: Money.notional(q, Price.of(price), currency),
  });
}

const itemsOf = (breakdown: ReturnType<typeof fees>) =>
  Object.fromEntries(breakdown.items.map((item) => [item.code, item.amount.toFixed()]));

describe('HK stock schedule', () => {
  const hk = scheduleFeeModel(HK_STOCK_SCHEDULE);

  it('charges a HKD 300,000 buy: platform fee, stamp duty, levies, trading and settlement fees', () => {
    const breakdown = fees(hk, HK, 'Buy', 1000, '300');
    expect(itemsOf(breakdown)).toEqual({
      platform_fee: '15',
      stamp_duty: '300',
      sfc_levy: '8.1',
      trading_fee: '16.95',
      settlement_fee: '6',
      frc_levy: '0.45',
    });
    expect(breakdown.total.toFixed()).toBe('346.5');
  });

  it('rounds stamp duty up to the dollar and applies the settlement minimum on a small trade', () => {
    const breakdown = fees(hk, HK, 'Sell', 100, '12.34');
    expect(itemsOf(breakdown)).toMatchObject({ stamp_duty: '2', settlement_fee: '2', sfc_levy: '0.03', trading_fee: '0.07' });
    expect(breakdown.total.toFixed()).toBe('19.1');
  });

  it('caps the settlement fee at HKD 100', () => {
    expect(itemsOf(fees(hk, HK, 'Buy', 100_000, '100')).settlement_fee).toBe('100');
  });
});

describe('US stock schedule', () => {
  const us = scheduleFeeModel(US_STOCK_SCHEDULE);

  it('charges only the minimum platform fee on a small buy', () => {
    expect(itemsOf(fees(us, US, 'Buy', 100, '150'))).toEqual({ platform_fee: '1' });
  });

  it('adds the SEC fee and FINRA TAF on sells, rounded up to the cent', () => {
    const breakdown = fees(us, US, 'Sell', 100, '150');
    expect(itemsOf(breakdown)).toEqual({ platform_fee: '1', sec_fee: '0.42', finra_taf: '0.02' });
    expect(breakdown.total.toFixed()).toBe('1.44');
  });

  it('caps the TAF and scales the platform fee per share on a large sell', () => {
    expect(itemsOf(fees(us, US, 'Sell', 100_000, '10'))).toEqual({ platform_fee: '500', sec_fee: '27.8', finra_taf: '8.3' });
  });
});

describe('other fee models', () => {
  it('charges a flat rate of traded value, unrounded', () => {
    expect(fees(commissionRate(0.001), HK, 'Buy', 333, '10.01').total.toFixed()).toBe('3.33333');
  });

  it("picks each symbol's own market schedule", () => {
    const model = byMarketFeeModel();
    expect(fees(model, HK, 'Buy', 1000, '300').total.toFixed()).toBe('346.5');
    expect(fees(model, US, 'Sell', 100, '150').total.toFixed()).toBe('1.44');
  });

  it('charges nothing for nothing executed', () => {
    expect(fees(scheduleFeeModel(HK_STOCK_SCHEDULE), HK, 'Buy', 0, '10').total.toFixed()).toBe('0');
  });
});
