// Market temperature over HTTP (PROTOCOL.md §7.1), from the generated figures of market/temperature.ts: the
// market date's reading, and the daily readings of the trading days in a range (never past the market date).
import { z } from 'zod';
import { timeZoneOf } from '../../../domain/market-hours.js';
import { isMarket, type Market } from '../../../domain/symbol.js';
import { startOfLocalDay } from '../../../domain/time-zone.js';
import { MarketDays } from '../../venue/market-days.js';
import { isoDate } from '../market/aggregate.js';
import { temperatureOf } from '../market/temperature.js';
import type { TradingCalendar } from '../market/trading-calendar.js';
import { readQuery, type Route } from './router.js';

export interface TemperatureSources {
  readonly calendar: TradingCalendar;
  /** Market time, epoch ms. */
  readonly now: () => number;
  readonly seed: number;
}

const market = z.string().refine(isMarket, 'must be HK, US, CN or SG');
const dayKey = z
  .string()
  .regex(/^\d{8}$/, 'must be a YYYYMMDD date')
  .transform(Number);
const historyQuery = z.object({ market, start_date: dayKey, end_date: dayKey });

export function temperatureRoutes(sources: TemperatureSources): Route[] {
  const days = new Map<Market, MarketDays>();
  const today = (of: Market): number => {
    let calendar = days.get(of);
    if (calendar === undefined) days.set(of, (calendar = new MarketDays(of)));
    return calendar.dayKey(sources.now());
  };
  const seconds = (of: Market, key: number): string => String(Math.floor(startOfLocalDay(isoDate(key), timeZoneOf(of)) / 1000));
  return [
    {
      method: 'GET',
      pattern: '/v1/quote/market_temperature',
      handler: (request) => {
        const of = readQuery(request, z.object({ market })).market as Market;
        const reading = temperatureOf(of, today(of), sources.seed);
        return { ...reading, updated_at: String(Math.floor(sources.now() / 1000)) };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/quote/history_market_temperature',
      handler: (request) => {
        const query = readQuery(request, historyQuery);
        const of = query.market as Market;
        const end = Math.min(query.end_date, today(of));
        const list = query.start_date > end ? [] : sources.calendar.tradingDays(of, query.start_date, end);
        return {
          type: 'daily',
          list: list.map((key) => {
            const { temperature, valuation, sentiment } = temperatureOf(of, key, sources.seed);
            return { timestamp: seconds(of, key), temperature, valuation, sentiment };
          }),
        };
      },
    },
  ];
}
