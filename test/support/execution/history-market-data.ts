// Subject market data with history, for warm-up tests: the test says what history answers and when.
import type { Candle, Period, SecuritySymbol } from '../../../src/domain/index.js';
import { SubjectMarketData } from './subject-market-data.js';

export class HistoryMarketData extends SubjectMarketData {
  readonly requests: { symbol: SecuritySymbol; period: Period; count: number }[] = [];
  private answer: Promise<readonly Candle[]> = Promise.resolve([]);
  private release: () => void = () => undefined;

  serve(bars: readonly Candle[]): void {
    this.answer = Promise.resolve(bars);
  }

  /** History that comes only when `releaseHistory` is called (live bars can arrive meanwhile). */
  serveLater(bars: readonly Candle[]): void {
    this.answer = new Promise((resolve) => (this.release = () => resolve(bars)));
  }

  fail(error: Error): void {
    this.answer = Promise.reject(error);
    this.answer.catch(() => undefined);
  }

  releaseHistory(): void {
    this.release();
  }

  history(symbol: SecuritySymbol, period: Period, count: number): Promise<readonly Candle[]> {
    this.requests.push({ symbol, period, count });
    return this.answer;
  }
}
