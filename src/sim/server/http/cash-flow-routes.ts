// Cash flow and fund positions over HTTP (PROTOCOL.md §7.1). Cash flow lists the venue's ledger of real cash
// and share movements (sim/venue/cash-flows.ts), newest first, within the asked time range, by business type
// (1 cash, 2 stock, 3 fund) and symbol, a page at a time. The venue trades no funds: fund positions are empty.
import { z } from 'zod';
import { securitySymbol } from '../../../openapi/http/wire.js';
import type { CashFlow, Venue } from '../../venue/index.js';
import { wireDecimal } from '../order-wire.js';
import { readQuery, type Route } from './router.js';

const seconds = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'must be unix seconds')
  .transform((value) => Number(value) * 1000);
const cashFlowQuery = z.object({
  start_time: seconds,
  end_time: seconds,
  business_type: z.enum(['1', '2', '3']).optional(),
  symbol: securitySymbol.optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(10_000).default(50),
});

const BUSINESS_TYPES = { cash: 1, stock: 2 } as const;
const DIRECTIONS = { out: 1, in: 2 } as const;

function cashFlowJson(flow: CashFlow): Record<string, unknown> {
  return {
    transaction_flow_name: flow.name,
    direction: DIRECTIONS[flow.direction],
    business_type: BUSINESS_TYPES[flow.kind],
    balance: wireDecimal(flow.amount),
    currency: flow.currency,
    business_time: String(Math.floor(flow.time / 1000)),
    symbol: flow.symbol,
    description: flow.description,
  };
}

export function cashFlowRoutes(venue: Venue): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/v1/asset/cashflow',
      handler: (request) => {
        const query = readQuery(request, cashFlowQuery);
        const flows = venue
          .cashFlows()
          .filter(
            (flow) =>
              flow.time >= query.start_time &&
              flow.time <= query.end_time &&
              (query.business_type === undefined || BUSINESS_TYPES[flow.kind] === Number(query.business_type)) &&
              (query.symbol === undefined || flow.symbol === query.symbol),
          )
          .reverse();
        return { list: flows.slice((query.page - 1) * query.size, query.page * query.size).map(cashFlowJson) };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/asset/fund',
      handler: () => ({ list: [{ account_channel: 'lb', fund_info: [] }] }),
    },
  ];
}
