// A hand-written LiveQuoteSource for feed tests: quotes and connection states are pushed by the test, and
// candlestick answers come from a list the test sets (recording each request).
import { BehaviorSubject, filter, Subject, type Observable } from 'rxjs';
import type { Candle } from '../../../src/domain/candle.js';
import type { Period } from '../../../src/domain/period.js';
import type { Quote } from '../../../src/domain/quote.js';
import type { SecuritySymbol } from '../../../src/domain/symbol.js';
import type { ConnectionState } from '../../../src/openapi/socket/connection-state.js';
import type { LiveQuoteSource } from '../../../src/feeds/live/live-source.js';
import type { OffsetQuery } from '../../../src/openapi/socket/quote-client.js';

export class StubQuoteSource implements LiveQuoteSource {
  readonly ticks = new Subject<Quote>();
  readonly states = new BehaviorSubject<ConnectionState>({ status: 'online', reconnected: false });
  readonly candleRequests: { symbol: SecuritySymbol; period: Period; count: number }[] = [];
  serviceCandles: Candle[] = [];
  /** Resolves candlestick requests only when the test says so (to observe ticks buffered meanwhile). */
  hold: Promise<void> = Promise.resolve();

  get state$(): Observable<ConnectionState> {
    return this.states;
  }

  quotes(symbols: readonly SecuritySymbol[]): Observable<Quote> {
    return this.ticks.pipe(filter((quote) => symbols.includes(quote.symbol)));
  }

  async whenSubscribed(): Promise<void> {}

  /** History answers: the latest `count` of `serviceCandles` (what the simulator's cmd 27 does). */
  async historyByOffset(symbol: SecuritySymbol, period: Period, query: OffsetQuery): Promise<Candle[]> {
    return this.candlesticks(symbol, period, query.count);
  }

  async candlesticks(symbol: SecuritySymbol, period: Period, count: number): Promise<Candle[]> {
    this.candleRequests.push({ symbol, period, count });
    await this.hold;
    return this.serviceCandles.filter((candle) => candle.symbol === symbol && candle.period === period).slice(-count);
  }
}
