// The MarketData port: where strategies' streams come from. Live and paper build it from socket pushes,
// backtests from candle history; strategies cannot tell the difference.
import type { Observable } from 'rxjs';
import type { Candle, Period, Quote, SecuritySymbol } from '../domain/index.js';

export interface MarketData {
  /** Closed candles only, in time order: a bar is emitted after its period has ended. */
  candles(symbol: SecuritySymbol, period: Period): Observable<Candle>;
  quotes(symbol: SecuritySymbol): Observable<Quote>;
}
