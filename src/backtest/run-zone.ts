// The zone a run's own times are told in (start, end, drawdown dates) and whose dates are its trading days.
import { timeZoneOf } from '../domain/market-hours.js';
import { marketOf, type SecuritySymbol } from '../domain/symbol.js';
import type { BacktestRecord } from './result.js';

/** The record's `timeZone`, else the market zone of its first symbol. */
export function runTimeZone(record: Pick<BacktestRecord, 'timeZone' | 'bars'>): string {
  return record.timeZone ?? firstSymbolZone(record.bars.keys());
}

/** The market zone of the first symbol; UTC when there is none. */
export function firstSymbolZone(symbols: Iterable<SecuritySymbol>): string {
  for (const symbol of symbols) return timeZoneOf(marketOf(symbol));
  return 'UTC';
}
