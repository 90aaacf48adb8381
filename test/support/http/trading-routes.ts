// Canned answers for every trading endpoint, so CLI tests can run each command against the fake server.
import { ok, type Route } from './fake-openapi-server.js';
import { balanceRow, orderDetailRow, orderRow, positionsData, replyItem, topicItem, watchlistData } from './wire-samples.js';

export const tradingRoutes: Readonly<Record<string, Route>> = {
  'GET /v1/asset/account': () => ok({ list: [balanceRow] }),
  'GET /v1/asset/stock': () => ok(positionsData),
  'POST /v1/trade/order': () => ok({ order_id: '7001' }),
  'GET /v1/trade/order': () => ok(orderDetailRow()),
  'PUT /v1/trade/order': () => ok({}),
  'DELETE /v1/trade/order': () => ok({}),
  'GET /v1/trade/order/today': () => ok({ orders: [orderRow()] }),
  'GET /v1/trade/order/history': () =>
    ok({ has_more: true, orders: [orderRow({ status: 'FilledStatus', executed_quantity: '200', executed_price: '49.95' })] }),
  'GET /v1/trade/estimate/buy_limit': () => ok({ cash_max_qty: '1200', margin_max_qty: '3600' }),
  'GET /v1/risk/margin-ratio': () => ok({ im_factor: '0.25', mm_factor: '0.2', fm_factor: '0.1' }),
  'GET /v1/watchlist/groups': () => ok(watchlistData),
  'GET /v1/quote/get_security_list': (request) =>
    ok({
      list: [
        request.headers['accept-language'] === 'zh-CN'
          ? { symbol: 'BAC.US', name_cn: '美国银行' }
          : { symbol: 'BAC.US', name_en: 'Bank of America' },
      ],
    }),
  'GET /v1/statement/list': () => ok({ list: [{ dt: 20240105, file_key: 'statement/2024/01/05.pdf' }] }),
  'GET /v1/statement/download': () => ok({ url: 'https://files.invalid/statement.pdf?sig=abc' }),
  'GET /v1/content/topics/mine': () => ok({ items: [topicItem] }),
  'POST /v1/content/topics': () => ok({ item: { id: 'T9' } }),
  'GET /v1/content/topics/T1': () => ok({ item: topicItem }),
  'GET /v1/content/topics/T1/comments': () => ok({ items: [replyItem] }),
  'POST /v1/content/topics/T1/comments': () => ok({ item: { ...replyItem, id: 'R2' } }),
  'GET /v1/token/refresh': () => ok({ token: 'fresh-token.abc', expired_at: '2024-09-01T00:00:00Z', issued_at: '2024-06-03T00:00:00Z' }),
  'GET /v1/socket/token': () => ok({ otp: 'one-time', limit: 2, online: 0 }),
};
