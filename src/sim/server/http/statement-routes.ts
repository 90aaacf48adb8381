// Account statements: one daily statement per market day with executions (monthly: per month), listed
// newest first, each downloadable as JSON from the link the download call hands out (no signature needed,
// like the service's pre-signed links).
import { z } from 'zod';
import type { SecuritySymbol } from '../../../domain/symbol.js';
import type { Venue } from '../../venue/index.js';
import type { MarketDays } from '../../venue/market-days.js';
import { wireDecimal } from '../order-wire.js';
import { readQuery, type Route } from './router.js';
import { ServiceFailure, SIM_CODES } from './service-failure.js';

const listQuery = z.object({
  statement_type: z.enum(['1', '2']),
  start_date: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(20),
});

const KEY = /^(daily|monthly)-(\d{6}|\d{8})$/;

export function statementRoutes(venue: Venue, daysOf: (symbol: SecuritySymbol) => MarketDays): Route[] {
  /** Statement date of a fill: yyyymmdd (daily) or yyyymm (monthly) of its market day. */
  const dateOf = (monthly: boolean, symbol: SecuritySymbol, time: number): number => {
    const day = daysOf(symbol).dayKey(time);
    return monthly ? Math.floor(day / 100) : day;
  };
  return [
    {
      method: 'GET',
      pattern: '/v1/statement/list',
      handler: (request) => {
        const query = readQuery(request, listQuery);
        const monthly = query.statement_type === '2';
        const dates = [...new Set(venue.executions().map((fill) => dateOf(monthly, fill.symbol, fill.time)))].sort((a, b) => b - a);
        const page = dates.slice((query.start_date - 1) * query.limit, query.start_date * query.limit);
        return { list: page.map((dt) => ({ dt, file_key: `${monthly ? 'monthly' : 'daily'}-${dt}` })) };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/statement/download',
      handler: (request) => {
        const { file_key } = readQuery(request, z.object({ file_key: z.string().regex(KEY, 'is not a statement key') }));
        return { url: `${request.origin}/statements/${file_key}.json` };
      },
    },
    {
      method: 'GET',
      pattern: '/statements/:file',
      unsigned: true,
      handler: (request) => {
        const match = KEY.exec(request.params['file']!.replace(/\.json$/, ''));
        if (match === null) throw new ServiceFailure(404, SIM_CODES.NOT_FOUND, 'no such statement');
        const monthly = match[1] === 'monthly';
        const date = Number(match[2]);
        const fills = venue.executions().filter((fill) => dateOf(monthly, fill.symbol, fill.time) === date);
        return {
          statement: match[0],
          executions: fills.map((fill) => ({
            order_id: fill.orderId,
            trade_id: fill.fillId,
            symbol: fill.symbol,
            side: fill.side,
            quantity: wireDecimal(fill.quantity),
            price: wireDecimal(fill.price),
            fees: wireDecimal(fill.commission),
            time: new Date(fill.time).toISOString(),
          })),
        };
      },
    },
  ];
}
