import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.js';
import type { OrderRequest } from '../../../src/domain/order.js';
import { ServiceError } from '../../../src/openapi/http/errors.js';
import { SIM_CODES } from '../../../src/sim/server/index.js';
import { HK, US } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { rawCall } from '../../support/sim/raw-request.js';
import { Price, Quantity } from '../../../src/domain/index.js';

let h: SimHarness;

beforeEach(async () => {
  h = await startSimHarness();
  h.stepUntil((tick) => tick.symbol === HK && tick.point === 'close');
});

afterEach(async () => {
  await h.close();
});

const d = (value: number | string): Decimal => new Decimal(value);
const p = (value: number | string): Price => Price.of(value);
const q = (value: number | string): Quantity => Quantity.of(value);
const limit = (side: 'Buy' | 'Sell', quantity: number, price: number, extra: Partial<OrderRequest> = {}): OrderRequest => ({
  symbol: HK,
  side,
  orderType: 'LO',
  quantity: q(quantity),
  price: p(price),
  timeInForce: 'Day',
  ...extra,
});

/** Every field PROTOCOL.md §4 lists for an Order (the official SDK rejects an order lacking any). */
const ORDER_FIELDS = [
  'order_id',
  'status',
  'stock_name',
  'quantity',
  'executed_quantity',
  'price',
  'executed_price',
  'submitted_at',
  'side',
  'symbol',
  'order_type',
  'last_done',
  'trigger_price',
  'msg',
  'tag',
  'time_in_force',
  'expire_date',
  'updated_at',
  'trigger_at',
  'trailing_amount',
  'trailing_percent',
  'limit_offset',
  'trigger_status',
  'currency',
  'outside_rth',
  'limit_depth_level',
  'trigger_count',
  'monitor_price',
  'remark',
];

describe('orders over HTTP', () => {
  it('rests a limit order below the market and fills it when the replay reaches its price', async () => {
    const price = d(h.sim.venue.markPrice(HK)!).minus('0.2');
    const { orderId } = await h.http.submitOrder(limit('Buy', 100, price.toNumber(), { remark: 'client-1' }));
    expect((await h.http.orderDetail(orderId)).status).toBe('NewStatus');

    const opening = h.step();
    expect((await h.http.orderDetail(orderId)).status).toBe('NewStatus');
    expect(opening!.price).toBeGreaterThan(price.toNumber());
    const filled = h.stepUntil((tick) => tick.symbol === HK && tick.price <= price.toNumber());
    const detail = await h.http.orderDetail(orderId);
    expect([detail.status, detail.executedQuantity.toFixed(), detail.executedPrice?.toFixed(), detail.remark]).toEqual([
      'FilledStatus',
      '100',
      price.toFixed(),
      'client-1',
    ]);
    expect(detail.history.map((entry) => entry.status)).toEqual(['NewStatus', 'FilledStatus']);
    expect(detail.updatedAt).toBe(Math.floor(filled.time / 1000) * 1000);
    const [position] = await h.http.positions([HK]);
    expect([position!.quantity.toFixed(), position!.costPrice.toFixed()]).toEqual(['100', price.toFixed()]);
    const [hkd] = await h.http.accountBalance('HKD');
    expect(hkd!.totalCash.toFixed()).toBe(d(1_000_000).minus(price.times(100)).toFixed());
  });

  it('replaces the quantity and price of an open order, then cancels it', async () => {
    const mark = h.sim.venue.markPrice(HK)!;
    const { orderId } = await h.http.submitOrder(limit('Buy', 100, mark - 10));
    await h.http.replaceOrder(orderId, { quantity: q(300), price: p(mark - 12) });
    const replaced = await h.http.orderDetail(orderId);
    expect([replaced.status, replaced.quantity.toFixed(), replaced.price?.toFixed()]).toEqual(['ReplacedStatus', '300', String(mark - 12)]);

    await h.http.cancelOrder(orderId);
    expect((await h.http.orderDetail(orderId)).status).toBe('CanceledStatus');
    // A new second, so the repeated call is not refused as a replay (403202) before it is looked at.
    h.clock.advanceBy(1000);
    const again = await h.http.cancelOrder(orderId).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ServiceError);
    expect((again as ServiceError).serviceCode).toBe(SIM_CODES.ORDER_CLOSED);
  });

  it('answers an unknown order id with 602001', async () => {
    const error = await h.http.orderDetail('799999999999999999').catch((caught: unknown) => caught);
    expect((error as ServiceError).serviceCode).toBe(SIM_CODES.ORDER_NOT_FOUND);
  });

  it('keeps a rejected submission as an order whose message says why', async () => {
    const { orderId } = await h.http.submitOrder(limit('Buy', 1_000_000, 400));
    const detail = await h.http.orderDetail(orderId);
    expect(detail.status).toBe('RejectedStatus');
    expect(detail.message).toMatch(/insufficient buying power/);
  });

  it('refuses a malformed submission with 400001 naming the field', async () => {
    const answer = await rawCall(h.sim, {
      method: 'POST',
      path: '/v1/trade/order',
      body: JSON.stringify({ symbol: '700.HK', order_type: 'LO', side: 'Buy', time_in_force: 'Day' }),
    });
    expect([answer.status, answer.json?.['code'], answer.json?.['message']]).toEqual([
      400,
      SIM_CODES.INVALID_PARAMETER,
      'invalid parameter: submitted_quantity is missing',
    ]);
  });

  it('writes every Order field, times as unix-second strings and "" for none', async () => {
    const { orderId } = await h.http.submitOrder(limit('Buy', 100, h.sim.venue.markPrice(HK)! - 5));
    const answer = await rawCall(h.sim, { path: '/v1/trade/order/today' });
    const [order] = (answer.json!['data'] as { orders: Record<string, unknown>[] }).orders;
    expect(Object.keys(order!).sort()).toEqual([...ORDER_FIELDS].sort());
    expect(order).toMatchObject({
      order_id: orderId,
      executed_price: '0',
      last_done: '',
      trigger_price: '',
      trigger_at: '0',
      expire_date: '',
      limit_depth_level: 0,
    });
    expect(order!['submitted_at']).toMatch(/^\d{10}$/);
    const detail = await rawCall(h.sim, { path: '/v1/trade/order', query: `order_id=${orderId}` });
    expect(Object.keys(detail.json?.['data'] as object)).toEqual(
      expect.arrayContaining([...ORDER_FIELDS, 'history', 'charge_detail', 'free_status', 'deductions_status', 'platform_deducted_status']),
    );
  });

  it("filters today's orders by symbol, status, side and id, and history orders by time", async () => {
    h.stepUntil((tick) => tick.symbol === US);
    const hkMark = h.sim.venue.markPrice(HK)!;
    const buy = await h.http.submitOrder(limit('Buy', 100, hkMark - 5));
    h.step();
    const us = await h.http.submitOrder({ symbol: US, side: 'Buy', orderType: 'LO', quantity: q(10), price: p(100), timeInForce: 'Day' });
    await h.http.cancelOrder(buy.orderId);

    const ids = (orders: readonly { orderId: string }[]): string[] => orders.map((order) => order.orderId);
    expect(ids(await h.http.todayOrders({ symbol: US }))).toEqual([us.orderId]);
    expect(ids(await h.http.todayOrders({ statuses: ['CanceledStatus'] }))).toEqual([buy.orderId]);
    expect(ids(await h.http.todayOrders({ side: 'Sell' }))).toEqual([]);
    expect(ids(await h.http.todayOrders({ orderId: us.orderId }))).toEqual([us.orderId]);
    const submittedAt = (await h.http.orderDetail(us.orderId)).submittedAt;
    expect(ids((await h.http.historyOrders({ startAt: submittedAt })).orders)).toEqual([us.orderId]);
    expect(ids((await h.http.historyOrders({ endAt: submittedAt })).orders)).toEqual([buy.orderId]);
  });

  it('answers submit-by-id with the order', async () => {
    const { orderId } = await h.http.submitOrder(limit('Buy', 100, h.sim.venue.markPrice(HK)! - 5));
    expect(await h.http.submitOrderById(orderId)).toMatchObject({ order_id: orderId, status: 'NewStatus' });
  });
});

describe('charges', () => {
  it('itemises the fees of a filled order in charge_detail, broker and third-party apart', async () => {
    await h.close();
    h = await startSimHarness({ venue: { fees: 'hk-stock' } });
    h.stepUntil((tick) => tick.symbol === HK);
    const { orderId } = await h.http.submitOrder({ symbol: HK, side: 'Buy', orderType: 'MO', quantity: q(100), timeInForce: 'Day' });
    h.step();
    const { chargeDetail } = await h.http.orderDetail(orderId);
    const [broker, third] = chargeDetail!.items;
    expect([broker!.code, third!.code, chargeDetail!.currency]).toEqual(['BROKER_FEES', 'THIRD_FEES', 'HKD']);
    expect(broker!.fees.find((fee) => fee.code === 'platform_fee')?.amount.toFixed()).toBe('15');
    expect(third!.fees.map((fee) => fee.code)).toContain('stamp_duty');
    const sum = [...broker!.fees, ...third!.fees].reduce((total, fee) => total.plus(fee.amount), d(0));
    expect(sum.toFixed()).toBe(chargeDetail!.totalAmount.toFixed());
  });
});

describe('account figures over HTTP', () => {
  it('funds each currency of the data with the starting cash', async () => {
    const balances = await h.http.accountBalance();
    expect(balances.map((balance) => [balance.currency, balance.totalCash.toFixed(), balance.buyPower.toFixed()])).toEqual([
      ['HKD', '1000000', '1000000'],
      ['USD', '1000000', '1000000'],
    ]);
  });

  it('estimates the buy limit from the cash and answers the configured margin ratios', async () => {
    await h.close();
    h = await startSimHarness({
      cash: 100_000,
      currency: 'HKD',
      venue: { marginRatios: { default: { im: '0.5', mm: '0.4', fm: '0.3' } } },
    });
    h.stepUntil((tick) => tick.symbol === HK);
    const limitAnswer = await h.http.estimateBuyLimit({ symbol: HK, orderType: 'LO', side: 'Buy', price: p(250) });
    expect([limitAnswer.cashMaxQty.toFixed(), limitAnswer.marginMaxQty.toFixed()]).toEqual(['400', '800']);
    const ratio = await h.http.marginRatio(HK);
    expect([ratio.imFactor.toFixed(), ratio.mmFactor.toFixed(), ratio.fmFactor.toFixed()]).toEqual(['0.5', '0.4', '0.3']);
  });
});
