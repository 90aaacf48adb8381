// Cash flow and fund positions (PROTOCOL.md §7.1). Cash-flow query keys go in the SDK's order; business type
// 1 cash, 2 stock, 3 fund; direction 1 out, 2 in; a null or "" symbol means none. Fund figures "" mean 0.
import { z } from 'zod';
import type { Transport } from './transport.js';
import { CASH_FLOW_TYPES, type CashFlow, type CashFlowQuery, type FundPosition } from './types.js';
import { decimal, decimalEmptyIsZero, integer, optionalSeconds, parseWire, seconds, text } from './wire.js';

const flows = z.object({
  list: z
    .array(
      z.object({
        transaction_flow_name: text,
        direction: integer,
        business_type: integer,
        balance: decimal,
        currency: text,
        business_time: seconds,
        symbol: text,
        description: text,
      }),
    )
    .default([]),
});

const DIRECTIONS = { 1: 'out', 2: 'in' } as const;

export async function cashFlow(transport: Transport, query: CashFlowQuery): Promise<CashFlow[]> {
  const data = await transport.call({
    method: 'GET',
    path: '/v1/asset/cashflow',
    query: {
      start_time: Math.floor(query.startAt / 1000),
      end_time: Math.floor(query.endAt / 1000),
      business_type: query.businessType === undefined ? undefined : CASH_FLOW_TYPES.indexOf(query.businessType) + 1,
      symbol: query.symbol,
      page: query.page,
      size: query.size,
    },
  });
  return parseWire(flows, data, 'GET /v1/asset/cashflow').list.map((row) => ({
    name: row.transaction_flow_name,
    direction: DIRECTIONS[row.direction as 1 | 2] ?? 'unknown',
    businessType: CASH_FLOW_TYPES[row.business_type - 1] ?? 'unknown',
    balance: row.balance,
    currency: row.currency,
    businessTime: row.business_time,
    symbol: row.symbol === '' ? undefined : row.symbol,
    description: row.description,
  }));
}

const funds = z.object({
  list: z
    .array(
      z.object({
        account_channel: text,
        fund_info: z
          .array(
            z.object({
              symbol: text,
              symbol_name: text,
              currency: text,
              holding_units: decimalEmptyIsZero,
              current_net_asset_value: decimalEmptyIsZero,
              cost_net_asset_value: decimalEmptyIsZero,
              net_asset_value_day: optionalSeconds,
            }),
          )
          .nullish()
          .transform((rows) => rows ?? []),
      }),
    )
    .default([]),
});

/** Fund holdings, all or of the given ISINs. */
export async function fundPositions(transport: Transport, symbols: readonly string[] = []): Promise<FundPosition[]> {
  const data = await transport.call({ method: 'GET', path: '/v1/asset/fund', query: { symbol: symbols } });
  return parseWire(funds, data, 'GET /v1/asset/fund').list.flatMap((channel) =>
    channel.fund_info.map((row) => ({
      accountChannel: channel.account_channel,
      symbol: row.symbol,
      symbolName: row.symbol_name,
      currency: row.currency,
      holdingUnits: row.holding_units,
      currentNetAssetValue: row.current_net_asset_value,
      costNetAssetValue: row.cost_net_asset_value,
      netAssetValueDay: row.net_asset_value_day,
    })),
  );
}
