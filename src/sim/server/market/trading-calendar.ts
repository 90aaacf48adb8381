// Trading days per market as the simulator knows them: inside the span its data covers, the dates that
// have bars; before and after it, every weekday (no holiday calendar). No half days.
import { InvalidInputError } from '../../../domain/errors.js';
import { marketOf, type Market } from '../../../domain/symbol.js';
import { MarketDays } from '../../venue/market-days.js';
import type { SymbolSeries } from './market-data.js';

interface MarketDates {
  readonly dates: Set<number>;
  first: number;
  last: number;
}

/** Longest range one question may span. */
const MAX_DAYS = 3_700;

export class TradingCalendar {
  private readonly markets = new Map<Market, MarketDates>();

  constructor(series: readonly SymbolSeries[]) {
    for (const { symbol, candles } of series) {
      const market = marketOf(symbol);
      const days = new MarketDays(market);
      let known = this.markets.get(market);
      if (known === undefined) {
        known = { dates: new Set(), first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };
        this.markets.set(market, known);
      }
      for (const candle of candles) {
        const key = days.dayKey(candle.time);
        known.dates.add(key);
        known.first = Math.min(known.first, key);
        known.last = Math.max(known.last, key);
      }
    }
  }

  /** Trading days (yyyymmdd) from `begin` to `end` inclusive. */
  tradingDays(market: Market, begin: number, end: number): number[] {
    const from = utcDate(begin);
    const to = utcDate(end);
    if ((to - from) / 86_400_000 > MAX_DAYS)
      throw new InvalidInputError(`trading days: a range of at most ${MAX_DAYS} days, got ${begin} to ${end}`, 'end_day');
    const known = this.markets.get(market);
    const result: number[] = [];
    for (let time = from; time <= to; time += 86_400_000) {
      const date = new Date(time);
      const key = date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
      const covered = known !== undefined && key >= known.first && key <= known.last;
      const weekday = date.getUTCDay() !== 0 && date.getUTCDay() !== 6;
      if (covered ? known.dates.has(key) : weekday) result.push(key);
    }
    return result;
  }
}

function utcDate(key: number): number {
  return Date.UTC(Math.floor(key / 10_000), (Math.floor(key / 100) % 100) - 1, key % 100);
}
