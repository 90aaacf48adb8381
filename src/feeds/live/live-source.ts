// What live candles need from the quote connection (QuoteClient provides it): quote pushes, the latest
// candlesticks for the bar under way and for backfilling a gap (cmd 19), the latest history bars for warming
// strategies up (cmd 27), and the connection state to know when a gap happened.
import type { Observable } from 'rxjs';
import type { Candle } from '../../domain/candle.js';
import type { Period } from '../../domain/period.js';
import type { Quote } from '../../domain/quote.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { ConnectionState } from '../../openapi/socket/connection-state.js';
import type { OffsetQuery } from '../../openapi/socket/quote-client.js';

export interface LiveQuoteSource {
  quotes(symbols: readonly SecuritySymbol[]): Observable<Quote>;
  /** Resolves once the subscriptions asked for so far are answered (the state they push follows the answer). */
  whenSubscribed(): Promise<void>;
  candlesticks(symbol: SecuritySymbol, period: Period, count: number): Promise<Candle[]>;
  historyByOffset(symbol: SecuritySymbol, period: Period, query: OffsetQuery): Promise<Candle[]>;
  readonly state$: Observable<ConnectionState>;
}
