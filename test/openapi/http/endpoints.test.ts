import { afterEach, describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { BadResponseError } from '../../../src/openapi/http/errors.js';
import { ok } from '../../support/http/fake-openapi-server.js';
import { startHarness, type Harness } from '../../support/http/client-harness.js';
import {
  balanceRow,
  orderDetailRow,
  orderRow,
  positionsData,
  replyItem,
  topicItem,
  watchlistData,
} from '../../support/http/wire-samples.js';
import { Fixed, Money, Price, Quantity } from '../../../src/domain/index.js';

let harness: Harness;
afterEach(async () => harness.close());

describe('OpenAPI endpoints over a real socket', () => {
  it('reads the account balance for a currency and maps it to AccountBalance', async () => {
    harness = await startHarness({ 'GET /v1/asset/account': () => ok({ list: [balanceRow] }) });
    const [balance] = await harness.run(harness.client.accountBalance('HKD'));
    const request = harness.server.requests[0]!;
    expect(request.query).toBe('currency=HKD');
    expect(request.signatureValid).toBe(true);
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(balance!.currency).toBe('HKD');
    expect(balance!.totalCash.eq(Money.of('1759070010.72', 'HKD'))).toBe(true);
    expect(balance!.buyPower.toFixed()).toBe('1500000000.99');
    expect(balance!.riskLevel).toBe(1);
    expect(balance!.cashInfos[0]!.availableCash.toFixed()).toBe('195902464.37');
    expect(balance!.frozenTransactionFees[0]!.frozenTransactionFee.toFixed()).toBe('12.5');
    expect(balance).not.toHaveProperty('some_new_field');
  });

  it('sends no query at all when no currency is asked for', async () => {
    harness = await startHarness({ 'GET /v1/asset/account': () => ok({ list: [] }) });
    expect(await harness.run(harness.client.accountBalance())).toEqual([]);
    expect(harness.server.requests[0]!.query).toBe('');
  });

  it('names a missing required field of the balance', async () => {
    const { buy_power: _omitted, ...incomplete } = balanceRow;
    harness = await startHarness({ 'GET /v1/asset/account': () => ok({ list: [incomplete] }) });
    const failure = harness.run(harness.client.accountBalance());
    await expect(failure).rejects.toThrow(BadResponseError);
    await expect(failure).rejects.toThrow('response of GET /v1/asset/account: field list[0].buy_power is missing');
  });

  it('asks for positions of several symbols with repeated keys and flattens the channels', async () => {
    harness = await startHarness({ 'GET /v1/asset/stock': () => ok(positionsData) });
    const positions = await harness.run(harness.client.positions([parseSymbol('700.HK'), parseSymbol('AAPL.US')]));
    expect(harness.server.requests[0]!.query).toBe('symbol=700.HK&symbol=AAPL.US');
    expect(positions).toHaveLength(2);
    expect(positions[0]).toMatchObject({ symbol: '700.HK', symbolName: 'TENCENT', accountChannel: 'lb', market: 'HK' });
    expect(positions[0]!.quantity.toFixed()).toBe('650');
    expect(positions[1]!.availableQuantity.isZero()).toBe(true);
    expect(positions[1]!.initQuantity).toBeUndefined();
  });

  it('submits an order with every field, in the protocol key order, unicode remark intact', async () => {
    harness = await startHarness({ 'POST /v1/trade/order': () => ok({ order_id: '7001' }) });
    const result = await harness.run(
      harness.client.submitOrder({
        symbol: parseSymbol('AAPL.US'),
        side: 'Sell',
        orderType: 'TSLPAMT',
        quantity: Quantity.of('10'),
        price: Price.of('180.5'),
        triggerPrice: Price.of('181'),
        limitOffset: Price.of('0.1'),
        trailingAmount: Price.of('0.5'),
        trailingPercent: Fixed.of('1.5'),
        timeInForce: 'GTD',
        expireDate: '2024-06-30',
        outsideRth: 'ANY_TIME',
        remark: 'bot #1 & co = 腾讯 +',
      }),
    );
    expect(result).toEqual({ orderId: '7001' });
    const request = harness.server.requests[0]!;
    expect(request.signatureValid).toBe(true);
    expect(request.body).toBe(
      '{"symbol":"AAPL.US","order_type":"TSLPAMT","side":"Sell","submitted_quantity":"10","time_in_force":"GTD",' +
        '"submitted_price":"180.5","trigger_price":"181","limit_offset":"0.1","trailing_amount":"0.5","trailing_percent":"1.5",' +
        '"expire_date":"2024-06-30","outside_rth":"ANY_TIME","remark":"bot #1 & co = 腾讯 +"}',
    );
  });

  it('writes expire_date as null and leaves out unset optionals on a plain limit order', async () => {
    harness = await startHarness({ 'POST /v1/trade/order': () => ok({ order_id: '7002' }) });
    await harness.run(
      harness.client.submitOrder({
        symbol: parseSymbol('700.HK'),
        side: 'Buy',
        orderType: 'LO',
        quantity: Quantity.of('200'),
        price: Price.of('50'),
        timeInForce: 'Day',
      }),
    );
    expect(harness.server.requests[0]!.body).toBe(
      '{"symbol":"700.HK","order_type":"LO","side":"Buy","submitted_quantity":"200","time_in_force":"Day","submitted_price":"50","expire_date":null}',
    );
  });

  it('replaces, cancels and submits by id with the documented methods and shapes', async () => {
    harness = await startHarness({
      'PUT /v1/trade/order': () => ok({}),
      'DELETE /v1/trade/order': () => ok({}),
      'POST /v1/trade/order/submit': () => ok({ order_id: '42', status: 'accepted' }),
    });
    await harness.run(harness.client.replaceOrder('42', { quantity: Quantity.of('100'), price: Price.of('51.25'), remark: 'r' }));
    await harness.run(harness.client.cancelOrder('42'));
    const submitted = await harness.run(harness.client.submitOrderById('42'));
    const [replace, cancel, byId] = harness.server.requests;
    expect(replace!.method).toBe('PUT');
    expect(replace!.body).toBe('{"order_id":"42","quantity":"100","price":"51.25","remark":"r"}');
    expect(cancel!.method).toBe('DELETE');
    expect(cancel!.query).toBe('order_id=42');
    expect(cancel!.body).toBe('');
    expect(byId!.body).toBe('{"order_id":"42"}');
    expect(submitted).toEqual({ order_id: '42', status: 'accepted' });
    expect(harness.server.requests.every((request) => request.signatureValid)).toBe(true);
  });

  it('maps an order detail with history and charges', async () => {
    harness = await startHarness({ 'GET /v1/trade/order': () => ok(orderDetailRow()) });
    const detail = await harness.run(harness.client.orderDetail('706388312699592704'));
    expect(harness.server.requests[0]!.query).toBe('order_id=706388312699592704');
    expect(detail).toMatchObject({
      orderId: '706388312699592704',
      status: 'PartialFilledStatus',
      symbol: '700.HK',
      side: 'Buy',
      orderType: 'LO',
      remark: 'client-1',
    });
    expect(detail.executedPrice!.toFixed()).toBe('49.9');
    expect(detail.outsideRth).toBeUndefined();
    expect(detail.triggerStatus).toBe('NOT_USED');
    expect(detail.submittedAt).toBe(1651644897_000);
    expect(detail.history.map((entry) => [entry.status, entry.message, entry.time])).toEqual([
      ['NewStatus', '', 1651644897_000],
      ['PartialFilledStatus', 'partly filled', 1651644899_000],
    ]);
    expect(detail.chargeDetail!.totalAmount.toFixed()).toBe('12.34');
    expect(detail.chargeDetail!.items[0]!.fees[0]!.amount.toFixed()).toBe('10');
  });

  it('treats an executed price of "0" as no fill price and names an unknown status', async () => {
    harness = await startHarness({
      'GET /v1/trade/order/today': (request) =>
        ok({ orders: request.params.some(([key]) => key === 'side') ? [orderRow({ status: 'Bogus' })] : [orderRow()] }),
    });
    const [order] = await harness.run(harness.client.todayOrders());
    expect(order!.executedPrice).toBeUndefined();
    expect(order!.price!.toFixed()).toBe('50');
    await expect(harness.run(harness.client.todayOrders({ side: 'Buy' }))).rejects.toThrow(
      /field orders\[0\]\.status "Bogus" is not one of NotReported/,
    );
  });

  it("filters today's orders by symbol, several statuses, side, market and id", async () => {
    harness = await startHarness({ 'GET /v1/trade/order/today': () => ok({ orders: [] }) });
    await harness.run(
      harness.client.todayOrders({
        symbol: parseSymbol('700.HK'),
        statuses: ['NewStatus', 'FilledStatus'],
        side: 'Buy',
        market: 'HK',
        orderId: '1',
      }),
    );
    expect(harness.server.requests[0]!.query).toBe('symbol=700.HK&status=NewStatus&status=FilledStatus&side=Buy&market=HK&order_id=1');
  });

  it('pages history orders between two times given in seconds', async () => {
    harness = await startHarness({
      'GET /v1/trade/order/history': () => ok({ has_more: true, orders: [orderRow({ status: 'FilledStatus' })] }),
    });
    const history = await harness.run(
      harness.client.historyOrders({
        symbol: parseSymbol('700.HK'),
        startAt: Date.parse('2024-01-01T00:00:00Z'),
        endAt: Date.parse('2024-02-01T00:00:00Z'),
      }),
    );
    expect(harness.server.requests[0]!.query).toBe('symbol=700.HK&start_at=1704067200&end_at=1706745600');
    expect(history.hasMore).toBe(true);
    expect(history.orders[0]!.status).toBe('FilledStatus');
  });

  it('estimates the buy limit and reads the margin ratio', async () => {
    harness = await startHarness({
      'GET /v1/trade/estimate/buy_limit': () => ok({ cash_max_qty: '100', margin_max_qty: '300' }),
      'GET /v1/risk/margin-ratio': () => ok({ im_factor: '0.25', mm_factor: '0.2', fm_factor: '0.1' }),
    });
    const limit = await harness.run(
      harness.client.estimateBuyLimit({ symbol: parseSymbol('700.HK'), orderType: 'LO', side: 'Buy', price: Price.of('50') }),
    );
    const ratio = await harness.run(harness.client.marginRatio(parseSymbol('700.HK')));
    expect(harness.server.requests[0]!.query).toBe('symbol=700.HK&order_type=LO&price=50&side=Buy&fractional_shares=false');
    expect(harness.server.requests[1]!.query).toBe('symbol=700.HK');
    expect([limit.cashMaxQty.toFixed(), limit.marginMaxQty.toFixed()]).toEqual(['100', '300']);
    expect([ratio.imFactor.toFixed(), ratio.mmFactor.toFixed(), ratio.fmFactor.toFixed()]).toEqual(['0.25', '0.2', '0.1']);
  });

  it('lists watchlist groups', async () => {
    harness = await startHarness({ 'GET /v1/watchlist/groups': () => ok(watchlistData) });
    const [group] = await harness.run(harness.client.watchlist());
    expect(group).toMatchObject({ id: '10086', name: 'Tech' });
    expect(group!.securities[0]).toMatchObject({ symbol: 'AAPL.US', name: 'Apple', watchedAt: 1651644897_000 });
    expect(group!.securities[0]!.watchedPrice!.toFixed()).toBe('150.5');
  });

  it('asks for the security list in a language through accept-language', async () => {
    harness = await startHarness({ 'GET /v1/quote/get_security_list': () => ok({ list: [{ symbol: 'BAC.US', name_cn: '美国银行' }] }) });
    const [security] = await harness.run(harness.client.securities({ market: 'US', language: 'zh-CN' }));
    const request = harness.server.requests[0]!;
    expect(request.query).toBe('market=US&category=Overnight');
    expect(request.headers['accept-language']).toBe('zh-CN');
    expect(security).toEqual({ symbol: 'BAC.US', name: '美国银行', nameEn: '', nameCn: '美国银行', nameHk: '' });
  });

  it('lists statements and fetches a download URL', async () => {
    harness = await startHarness({
      'GET /v1/statement/list': () => ok({ list: [{ dt: 20240105, file_key: 'k/1' }] }),
      'GET /v1/statement/download': () => ok({ url: 'https://files.invalid/1.pdf' }),
    });
    expect(await harness.run(harness.client.statements({ type: 'monthly', page: 2, pageSize: 5 }))).toEqual([
      { date: 20240105, fileKey: 'k/1' },
    ]);
    expect(await harness.run(harness.client.statementDownloadUrl('k/1 x'))).toEqual({ url: 'https://files.invalid/1.pdf' });
    expect(harness.server.requests[0]!.query).toBe('statement_type=2&start_date=2&limit=5');
    expect(harness.server.requests[1]!.query).toBe('file_key=k%2F1+x');
  });

  it('covers the community topic calls', async () => {
    harness = await startHarness({
      'GET /v1/content/topics/mine': () => ok({ items: [topicItem] }),
      'POST /v1/content/topics': () => ok({ item: { id: 'T9' } }),
      'GET /v1/content/topics/T1': () => ok({ item: topicItem }),
      'GET /v1/content/topics/T1/comments': () => ok({ items: [replyItem] }),
      'POST /v1/content/topics/T1/comments': () => ok({ item: { ...replyItem, id: 'R2', body: 'très bien' } }),
    });
    const mine = await harness.run(harness.client.myTopics({ page: 1, size: 10 }));
    const created = await harness.run(harness.client.createTopic({ title: 'Hi & bye', body: '**bold** 腾讯', tickers: ['700.HK'] }));
    const topic = await harness.run(harness.client.topicDetail('T1'));
    const replies = await harness.run(harness.client.topicReplies('T1'));
    const reply = await harness.run(harness.client.createTopicReply('T1', { body: 'très bien' }));
    expect(mine[0]).toMatchObject({
      id: 'T1',
      title: 'Hello',
      author: { memberId: 'M1', name: 'Ann' },
      likesCount: 3,
      createdAt: 1700000000_000,
    });
    expect(created).toEqual({ id: 'T9' });
    expect(topic.body).toBe('# Hello');
    expect(replies[0]).toMatchObject({ id: 'R1', topicId: 'T1', replyToId: '0' });
    expect(reply.body).toBe('très bien');
    const [listMine, create, , , createReply] = harness.server.requests;
    expect(listMine!.query).toBe('page=1&size=10');
    expect(create!.body).toBe('{"title":"Hi & bye","body":"**bold** 腾讯","tickers":["700.HK"]}');
    expect(createReply!.body).toBe('{"body":"très bien"}');
    expect(harness.server.requests.every((request) => request.signatureValid)).toBe(true);
  });

  it('refreshes the token with an RFC 3339 expiry and reads either time format back', async () => {
    harness = await startHarness({
      'GET /v1/token/refresh': () => ok({ token: 'NEW', expired_at: '2024-08-04T01:30:00Z', issued_at: '1714959000' }),
    });
    const refreshed = await harness.run(harness.client.refreshToken(Date.parse('2024-08-04T01:30:00.750Z')));
    expect(harness.server.requests[0]!.query).toBe('expired_at=2024-08-04T01%3A30%3A00Z');
    expect(refreshed).toEqual({ token: 'NEW', expiresAt: Date.parse('2024-08-04T01:30:00Z'), issuedAt: 1714959000_000 });
  });

  it('fetches a one-time socket token', async () => {
    harness = await startHarness({ 'GET /v1/socket/token': () => ok({ otp: 'one-time', limit: 2, online: 1 }) });
    expect(await harness.run(harness.client.socketToken())).toEqual({ otp: 'one-time', limit: 2, online: 1 });
  });
});
