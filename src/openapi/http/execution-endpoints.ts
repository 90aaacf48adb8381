// Executions (fills) of today and of a past range (PROTOCOL.md §7.1): `{trades[]}`, times as unix seconds.
import { z } from 'zod';
import type { Transport } from './transport.js';
import type { Execution, HistoryExecutionQuery, TodayExecutionQuery } from './types.js';
import { decimal, parseWire, requiredText, seconds } from './wire.js';

const executions = z.object({
  trades: z
    .array(
      z.object({
        order_id: requiredText,
        trade_id: requiredText,
        symbol: requiredText,
        trade_done_at: seconds,
        quantity: decimal,
        price: decimal,
      }),
    )
    .default([]),
});

function toExecutions(data: unknown, request: string): Execution[] {
  return parseWire(executions, data, request).trades.map((row) => ({
    orderId: row.order_id,
    tradeId: row.trade_id,
    symbol: row.symbol,
    tradeDoneAt: row.trade_done_at,
    quantity: row.quantity,
    price: row.price,
  }));
}

const unixSeconds = (epochMs: number | undefined): number | undefined => (epochMs === undefined ? undefined : Math.floor(epochMs / 1000));

export async function todayExecutions(transport: Transport, query: TodayExecutionQuery = {}): Promise<Execution[]> {
  const data = await transport.call({
    method: 'GET',
    path: '/v1/trade/execution/today',
    query: { symbol: query.symbol, order_id: query.orderId },
  });
  return toExecutions(data, 'GET /v1/trade/execution/today');
}

export async function historyExecutions(transport: Transport, query: HistoryExecutionQuery = {}): Promise<Execution[]> {
  const data = await transport.call({
    method: 'GET',
    path: '/v1/trade/execution/history',
    query: { symbol: query.symbol, start_at: unixSeconds(query.startAt), end_at: unixSeconds(query.endAt) },
  });
  return toExecutions(data, 'GET /v1/trade/execution/history');
}
