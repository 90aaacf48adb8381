// The MarketData port: where strategies' streams come from. Live and paper build it from socket pushes,
// backtests from candle history; strategies cannot tell the difference.
import type { Observable } from 'rxjs';
import type { Candle, Period, Quote, SecuritySymbol } from '../domain/index.js';

export interface MarketData {
  /** Closed candles only, in time order: a bar is emitted after its period has ended. */
  candles(symbol: SecuritySymbol, period: Period): Observable<Candle>;
  quotes(symbol: SecuritySymbol): Observable<Quote>;
  /**
   * The last `count` closed bars before now, oldest first (fewer when the service has fewer), for warming up
   * indicators. Live and paper market data have it; backtests do not (a backtest starts at its first bar).
   */
  history?(symbol: SecuritySymbol, period: Period, count: number): Promise<readonly Candle[]>;
}
