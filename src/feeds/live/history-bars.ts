// The latest closed bars of a symbol from the service's history candlesticks (cmd 27, backward from now),
// for warming strategies up. The service may include the bar still forming; it is left out by the same rule
// that closes live bars (its end plus the grace has passed in market time): live data brings it, starting
// from the service's figures of it (live-candles.ts).
import type { Candle } from '../../domain/candle.js';
import type { Period } from '../../domain/period.js';
import { marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { barWindow } from './bar-window.js';
import type { LiveQuoteSource } from './live-source.js';

/** Most bars one cmd 27 answer carries. */
const MAX_HISTORY_BARS = 1000;

export interface HistoryBarsOptions {
  /** Market time now. */
  readonly now: number;
  /** Wait after a bar's end before it counts as closed (as for live bars). */
  readonly graceMs: number;
  readonly extendedHours?: boolean;
}

export async function latestClosedBars(
  source: LiveQuoteSource,
  symbol: SecuritySymbol,
  period: Period,
  count: number,
  options: HistoryBarsOptions,
): Promise<Candle[]> {
  if (count <= 0) return [];
  // One more than wanted, in case the newest is still forming.
  const asked = Math.min(MAX_HISTORY_BARS, count + 1);
  const bars = await source.historyByOffset(symbol, period, {
    direction: 'backward',
    count: asked,
    ...(options.extendedHours === true ? { allSessions: true } : {}),
  });
  const market = marketOf(symbol);
  const closed = bars.filter((bar) => bar.time < options.now && barWindow(bar.time, period, market).end + options.graceMs <= options.now);
  return closed.slice(-count);
}
