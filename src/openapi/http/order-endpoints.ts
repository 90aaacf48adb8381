// Orders: submit, replace, cancel, submit-by-id, detail, today's and history lists. Bodies follow PROTOCOL.md §4
// (key order of the official SDK's SubmitOrderOptions / ReplaceOrderOptions); none of the writes is repeated.
import { z } from 'zod';
import { toWire } from '../../domain/decimal.js';
import type { FixedPoint } from '../../domain/fixed-point.js';
import type { Order, OrderReplacement, OrderRequest } from '../../domain/order.js';
import type { OrderStatus } from '../../domain/order-status.js';
import type { Side } from '../../domain/order-types.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { OrderQuery } from '../../execution/broker.js';
import { toOrder, toOrderDetail, wireOrder, wireOrderDetail } from './order-wire.js';
import type { Transport } from './transport.js';
import type { HistoryOrders, OrderDetail } from './types.js';
import { parseWire, requiredText } from './wire.js';

const wire = (value: FixedPoint | undefined): string | undefined => (value === undefined ? undefined : toWire(value));

/** The submit body with keys in the SDK's order; `expire_date` is null when unset, absent optionals are left out. */
export function submitOrderBody(request: OrderRequest): Record<string, unknown> {
  return withoutUndefined({
    symbol: request.symbol,
    order_type: request.orderType,
    side: request.side,
    submitted_quantity: toWire(request.quantity),
    time_in_force: request.timeInForce,
    submitted_price: wire(request.price),
    trigger_price: wire(request.triggerPrice),
    limit_offset: wire(request.limitOffset),
    trailing_amount: wire(request.trailingAmount),
    trailing_percent: wire(request.trailingPercent),
    expire_date: request.expireDate ?? null,
    outside_rth: request.outsideRth,
    remark: request.remark,
  });
}

export function replaceOrderBody(orderId: string, replacement: OrderReplacement): Record<string, unknown> {
  return withoutUndefined({
    order_id: orderId,
    quantity: toWire(replacement.quantity),
    price: wire(replacement.price),
    trigger_price: wire(replacement.triggerPrice),
    limit_offset: wire(replacement.limitOffset),
    trailing_amount: wire(replacement.trailingAmount),
    trailing_percent: wire(replacement.trailingPercent),
    remark: replacement.remark,
  });
}

export async function submitOrder(transport: Transport, request: OrderRequest): Promise<{ readonly orderId: string }> {
  const data = await transport.call({ method: 'POST', path: '/v1/trade/order', body: submitOrderBody(request) });
  const { order_id } = parseWire(z.object({ order_id: requiredText }), data, 'POST /v1/trade/order');
  return { orderId: order_id };
}

/** `POST /v1/trade/order/submit {order_id}` (the spec's signing example); the answer is passed through. */
export async function submitOrderById(transport: Transport, orderId: string): Promise<unknown> {
  return transport.call({ method: 'POST', path: '/v1/trade/order/submit', body: { order_id: orderId } });
}

export async function replaceOrder(transport: Transport, orderId: string, replacement: OrderReplacement): Promise<void> {
  await transport.call({ method: 'PUT', path: '/v1/trade/order', body: replaceOrderBody(orderId, replacement) });
}

export async function cancelOrder(transport: Transport, orderId: string): Promise<void> {
  await transport.call({ method: 'DELETE', path: '/v1/trade/order', query: { order_id: orderId } });
}

export async function orderDetail(transport: Transport, orderId: string): Promise<OrderDetail> {
  const data = await transport.call({ method: 'GET', path: '/v1/trade/order', query: { order_id: orderId } });
  return toOrderDetail(parseWire(wireOrderDetail, data, 'GET /v1/trade/order'));
}

export async function todayOrders(transport: Transport, query: OrderQuery = {}): Promise<readonly Order[]> {
  const data = await transport.call({
    method: 'GET',
    path: '/v1/trade/order/today',
    query: { symbol: query.symbol, status: query.statuses, side: query.side, market: query.market, order_id: query.orderId },
  });
  const { orders } = parseWire(z.object({ orders: z.array(wireOrder) }), data, 'GET /v1/trade/order/today');
  return orders.map(toOrder);
}

export interface HistoryOrderQuery {
  readonly symbol?: SecuritySymbol;
  readonly statuses?: readonly OrderStatus[];
  readonly side?: Side;
  readonly market?: string;
  /** Epoch ms; sent as unix seconds. */
  readonly startAt?: number;
  readonly endAt?: number;
}

export async function historyOrders(transport: Transport, query: HistoryOrderQuery = {}): Promise<HistoryOrders> {
  const data = await transport.call({
    method: 'GET',
    path: '/v1/trade/order/history',
    query: {
      symbol: query.symbol,
      status: query.statuses,
      side: query.side,
      market: query.market,
      start_at: query.startAt === undefined ? undefined : Math.floor(query.startAt / 1000),
      end_at: query.endAt === undefined ? undefined : Math.floor(query.endAt / 1000),
    },
  });
  const row = parseWire(
    z.object({ has_more: z.boolean().default(false), orders: z.array(wireOrder) }),
    data,
    'GET /v1/trade/order/history',
  );
  return { hasMore: row.has_more, orders: row.orders.map(toOrder) };
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
