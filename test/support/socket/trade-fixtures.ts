// The trade side on a SocketTestServer: topic subscriptions (cmd 16) and order-change notifications (cmd 18).
import { TRADE_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import type { SocketTestServer } from './socket-test-server.js';

/** A complete `order_changed_lb` data object as the service sends it. */
export function orderChanged(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    side: 'Buy',
    stock_name: 'TENCENT',
    submitted_quantity: '200',
    symbol: '700.HK',
    order_type: 'LO',
    submitted_price: '388.2',
    executed_quantity: '100',
    executed_price: '388.1',
    order_id: '701276261045858304',
    currency: 'HKD',
    status: 'PartialFilledStatus',
    submitted_at: '1704165000',
    updated_at: '1704165012',
    trigger_price: '',
    msg: '',
    tag: 'Normal',
    trigger_status: 'NOT_USED',
    trigger_at: '0',
    trailing_amount: '',
    trailing_percent: '',
    limit_offset: '',
    account_no: 'HK123',
    last_share: '100',
    last_price: '388.1',
    remark: 'client-42',
    ...overrides,
  };
}

/** Answers cmd 16 with `current` (what the service holds afterwards). */
export function serveTopics(server: SocketTestServer, current: readonly string[]): void {
  server.handle(TRADE_COMMANDS.subscribe, (request) => {
    const { topics } = messages.sub.decode(request.body);
    return { body: messages.subResponse.encode({ success: topics, fail: [], current }) };
  });
}

export function pushNotification(server: SocketTestServer, payload: unknown, contentType = 1): void {
  const data = new TextEncoder().encode(typeof payload === 'string' ? payload : JSON.stringify(payload));
  server.push(TRADE_COMMANDS.notification, messages.notification.encode({ topic: 'private', contentType, dispatchType: 1, data }));
}
