// Small market-data fixtures for socket tests: quotes, the service's minute bars and daily candles of 700.HK.
import type { Candle } from '../../../src/domain/candle.js';
import { Money } from '../../../src/domain/money.js';
import { Price } from '../../../src/domain/price.js';
import { Quantity } from '../../../src/domain/quantity.js';
import type { Quote } from '../../../src/domain/quote.js';
import { currencyOf, marketOf, parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import { startOfLocalDay } from '../../../src/domain/time-zone.js';

export const HK = parseSymbol('700.HK');
export const US = parseSymbol('AAPL.US');

/** 2000-01-04 10:00 in Hong Kong: the simulator replays the year 2000 while the client clock says today. */
export const REPLAY = startOfLocalDay('2000-01-04', 'Asia/Hong_Kong') + 10 * 3_600_000;

/** The service's one-minute bar of 700.HK `minute` minutes after REPLAY. */
export function serviceMinuteBar(minute: number, close: number, volume: number): Candle {
  return { symbol: HK, period: '1m', time: REPLAY + minute * 60_000, open: 10, high: 11, low: 9, close, volume, turnover: 0 };
}

export function quoteOf(symbol: SecuritySymbol, lastDone: string, timestamp: number, volume: number, sequence = 1): Quote {
  const price = Price.of(lastDone);
  const currency = currencyOf(marketOf(symbol));
  return {
    symbol,
    sequence,
    lastDone: price,
    open: price,
    high: price,
    low: price,
    timestamp,
    volume,
    turnover: Money.notional(Quantity.of(volume), price, currency),
    tradeStatus: 0,
    tradeSession: 'normal',
    currentVolume: 0,
    currentTurnover: Money.zero(currency),
  };
}

/** Daily bars of 700.HK on consecutive calendar days from `firstDate`. */
export function dailyCandles(firstDate: string, count: number): Candle[] {
  const start = startOfLocalDay(firstDate, 'Asia/Hong_Kong');
  return Array.from({ length: count }, (_, index) => ({
    symbol: HK,
    period: 'day' as const,
    time: start + index * 86_400_000,
    open: 100 + index,
    high: 102 + index,
    low: 99 + index,
    close: 101.5 + index,
    volume: 1000 * (index + 1),
    turnover: 101_500 * (index + 1),
  }));
}
