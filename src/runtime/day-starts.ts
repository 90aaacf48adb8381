// When a market day starts, as the quotes tell it: corporate actions (a split's shares, a dividend's cash)
// take effect at a market's open and the protocol pushes none of them, so a runtime whose broker is reached
// over the wire reconciles at the first quote of each market day in a market it holds positions in, before
// the strategies see that day's first bar. (A backtest's broker tells the book at once: Broker `carried`.)
import { merge, type Observable, type Subscription } from 'rxjs';
import { DAY_MS } from '../domain/civil-date.js';
import { timeZoneOf } from '../domain/market-hours.js';
import type { Quote } from '../domain/quote.js';
import { marketOf, type Market, type SecuritySymbol } from '../domain/symbol.js';
import { localDate, ZoneRules } from '../domain/time-zone.js';

export interface DayStartOptions {
  readonly symbols: readonly SecuritySymbol[];
  readonly quotes: (symbol: SecuritySymbol) => Observable<Quote>;
  /**
   * Whether the market's day starting needs a pass: the book holds a position there (and, where the broker can
   * tell, an action of it falls on a day after `after`, the market's last day seen, up to `through`; YYYY-MM-DD).
   */
  readonly due: (market: Market, after: string | undefined, through: string) => boolean;
  /** Called at most once per market day, for a market that is `due`. */
  readonly dayStarted: (market: Market) => void;
}

export function watchDayStarts(options: DayStartOptions): Subscription {
  // The local day each market was last seen on: its number, and its date.
  const days = new Map<Market, { readonly day: number; readonly date: string }>();
  const streams = [...new Set(options.symbols)].map((symbol) => options.quotes(symbol));
  return merge(...streams).subscribe((quote) => {
    // Overnight trading (US, from 20:00) belongs to the next day, which has not opened yet.
    if (quote.tradeSession === 'overnight') return;
    const market = marketOf(quote.symbol);
    const day = localDay(quote.timestamp, market);
    const last = days.get(market);
    if (last !== undefined && day <= last.day) return;
    const date = localDate(quote.timestamp, timeZoneOf(market));
    days.set(market, { day, date });
    if (options.due(market, last?.date, date)) options.dayStarted(market);
  });
}

function localDay(time: number, market: Market): number {
  return Math.floor((time + ZoneRules.of(timeZoneOf(market)).offsetAt(time)) / DAY_MS);
}
