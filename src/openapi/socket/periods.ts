// The service's candlestick Period and TradeSession codes ⇄ our Period and TradeSession names.
import { InvalidInputError } from '../../domain/errors.js';
import type { Period } from '../../domain/period.js';
import { TRADE_SESSIONS, type TradeSession } from '../../domain/quote.js';

export const PERIOD_CODES: Readonly<Record<Period, number>> = {
  '1m': 1,
  '2m': 2,
  '3m': 3,
  '5m': 5,
  '10m': 10,
  '15m': 15,
  '20m': 20,
  '30m': 30,
  '45m': 45,
  '60m': 60,
  '120m': 120,
  '180m': 180,
  '240m': 240,
  day: 1000,
  week: 2000,
  month: 3000,
  quarter: 3500,
  year: 4000,
};

export function periodCode(period: Period): number {
  return PERIOD_CODES[period];
}

export function periodFromCode(code: number): Period {
  const found = (Object.entries(PERIOD_CODES) as [Period, number][]).find(([, value]) => value === code);
  if (found === undefined) throw new InvalidInputError(`unknown candlestick period code ${code}`, 'period');
  return found[0];
}

/** 0 normal, 1 pre, 2 post, 3 overnight; unknown codes count as normal. */
export function tradeSessionFromCode(code: number): TradeSession {
  return TRADE_SESSIONS[code] ?? 'normal';
}

export function tradeSessionCode(session: TradeSession): number {
  return TRADE_SESSIONS.indexOf(session);
}
