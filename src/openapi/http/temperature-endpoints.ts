// Market temperature now and by day (PROTOCOL.md §7.1). Times come as unix-second strings; the docs' `timestamp`
// is read when `updated_at` is absent, and an unknown history granularity is `unknown`, not an error.
import { z } from 'zod';
import type { Market } from '../../domain/symbol.js';
import type { Transport } from './transport.js';
import type { MarketTemperature, TemperatureHistory } from './types.js';
import { integer, optionalSeconds, parseWire, seconds, text } from './wire.js';

const reading = z.object({
  temperature: integer,
  description: text,
  valuation: integer,
  sentiment: integer,
  updated_at: optionalSeconds,
  timestamp: optionalSeconds,
});

export async function marketTemperature(transport: Transport, market: Market): Promise<MarketTemperature> {
  const data = await transport.call({ method: 'GET', path: '/v1/quote/market_temperature', query: { market } });
  const row = parseWire(reading, data, 'GET /v1/quote/market_temperature');
  return {
    temperature: row.temperature,
    description: row.description,
    valuation: row.valuation,
    sentiment: row.sentiment,
    updatedAt: row.updated_at ?? row.timestamp ?? 0,
  };
}

const history = z.object({
  type: text,
  list: z.array(z.object({ timestamp: seconds, temperature: integer, valuation: integer, sentiment: integer })).default([]),
});

const GRANULARITIES = ['daily', 'weekly', 'monthly'] as const;

/** Readings from `from` to `to` (YYYY-MM-DD, inclusive). */
export async function historyMarketTemperature(
  transport: Transport,
  market: Market,
  from: string,
  to: string,
): Promise<TemperatureHistory> {
  const data = await transport.call({
    method: 'GET',
    path: '/v1/quote/history_market_temperature',
    query: { market, start_date: from.replaceAll('-', ''), end_date: to.replaceAll('-', '') },
  });
  const row = parseWire(history, data, 'GET /v1/quote/history_market_temperature');
  return {
    granularity: (GRANULARITIES as readonly string[]).includes(row.type) ? (row.type as TemperatureHistory['granularity']) : 'unknown',
    records: row.list.map((entry) => ({
      time: entry.timestamp,
      temperature: entry.temperature,
      valuation: entry.valuation,
      sentiment: entry.sentiment,
    })),
  };
}
