// A MarketData port driven by the test: candles and quotes are pushed by hand through Subjects.
import { Subject, type Observable } from 'rxjs';
import { parseSymbol, type Candle, type Period, type Quote, type SecuritySymbol } from '../../../src/domain/index.js';
import type { MarketData } from '../../../src/feeds/market-data.js';

export class SubjectMarketData implements MarketData {
  private readonly candleSubjects = new Map<string, Subject<Candle>>();
  private readonly quoteSubjects = new Map<string, Subject<Quote>>();

  candles(symbol: SecuritySymbol, period: Period): Observable<Candle> {
    return this.candleSubject(symbol, period).asObservable();
  }

  quotes(symbol: SecuritySymbol): Observable<Quote> {
    return this.quoteSubject(symbol).asObservable();
  }

  pushCandle(candle: Candle): void {
    this.candleSubject(candle.symbol, candle.period).next(candle);
  }

  /** The subject of one stream, for feeding many candles without a lookup each (benchmarks). */
  candleFeed(symbol: SecuritySymbol, period: Period): Subject<Candle> {
    return this.candleSubject(symbol, period);
  }

  pushQuote(quote: Quote): void {
    this.quoteSubject(quote.symbol).next(quote);
  }

  complete(): void {
    for (const subject of this.candleSubjects.values()) subject.complete();
  }

  private candleSubject(symbol: SecuritySymbol, period: Period): Subject<Candle> {
    const key = `${symbol}|${period}`;
    let subject = this.candleSubjects.get(key);
    if (subject === undefined) {
      subject = new Subject<Candle>();
      this.candleSubjects.set(key, subject);
    }
    return subject;
  }

  private quoteSubject(symbol: SecuritySymbol): Subject<Quote> {
    let subject = this.quoteSubjects.get(symbol);
    if (subject === undefined) {
      subject = new Subject<Quote>();
      this.quoteSubjects.set(symbol, subject);
    }
    return subject;
  }
}

const DAY_MS = 86_400_000;

/** Daily candles whose open, high, low and close are all `close` (enough for close-based strategies). */
export function dailyCandles(symbolText: string, closes: readonly number[], startMs = Date.UTC(2024, 0, 1)): Candle[] {
  const symbol = parseSymbol(symbolText);
  return closes.map((close, index) => ({
    symbol,
    period: 'day',
    time: startMs + index * DAY_MS,
    open: close,
    high: close,
    low: close,
    close,
    volume: 1000,
  }));
}
