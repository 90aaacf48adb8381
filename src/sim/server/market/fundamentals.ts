// Generated fundamentals of a replayed security (candle data has none): a trailing P/E between 8 and 35, a P/B
// between 0.8 and 6 and a dividend yield under 4 %, drawn once per symbol from the seed and turned into per-share
// figures at the first price of the data, so static info and the calc indexes tell the same story.
import type { SecuritySymbol } from '../../../domain/symbol.js';
import { deriveSeed, SeededRandom } from '../../venue/index.js';

export const TOTAL_SHARES = 1_000_000_000;

export interface Fundamentals {
  /** Earnings, book value and dividend per share, in the trading currency. */
  readonly epsTtm: number;
  readonly bps: number;
  readonly dividendPerShare: number;
}

export function fundamentalsOf(symbol: SecuritySymbol, firstPrice: number, seed: number): Fundamentals {
  const random = new SeededRandom(deriveSeed(seed, `fundamentals:${symbol}`));
  const pe = 8 + 27 * random.next();
  const pb = 0.8 + 5.2 * random.next();
  const dividendYield = 0.04 * random.next();
  const cents = (value: number): number => Math.round(value * 100) / 100;
  return { epsTtm: cents(firstPrice / pe), bps: cents(firstPrice / pb), dividendPerShare: cents(firstPrice * dividendYield) };
}
