// The board lot of each symbol, the unit the strategies' sizing helpers round to (targetPercent on 700.HK
// gives multiples of 100): what the venue enforces. A backtest asks its venue's instruments; paper and live
// runs ask the service's static info (command 10; the simulator serves its venue's lots there) once, for
// every strategy symbol, at start-up. A symbol asked about later falls back to its market's default lot.
import { instrumentOf, type SecuritySymbol } from '../domain/index.js';
import { readWithRetry, type ReadSettings } from '../execution/read-retry.js';

/** A symbol's lot size in shares (≥ 1). */
export type LotSizes = (symbol: SecuritySymbol) => number;

/** Lots as the market defaults have them (HK 100, US 1, …): what a run without better knowledge assumes. */
export const marketLotSizes: LotSizes = (symbol) => instrumentOf(symbol).lotSize;

interface StaticInfoSource {
  staticInfo(symbols: readonly SecuritySymbol[]): Promise<readonly { readonly symbol: string; readonly lotSize: number }[]>;
}

/** Asks the service once for the lot sizes of `symbols` (retried like the other start-up reads). */
export async function fetchLotSizes(
  quotes: StaticInfoSource,
  symbols: readonly SecuritySymbol[],
  settings: Pick<ReadSettings, 'clock' | 'logger' | 'signal'>,
): Promise<LotSizes> {
  if (symbols.length === 0) return marketLotSizes;
  const infos = await readWithRetry(() => quotes.staticInfo(symbols), `the lot sizes of ${symbols.join(', ')} (static info)`, settings);
  const known = new Map<string, number>();
  // A lot of 0 means the service did not say: the market's default is the better guess.
  for (const info of infos) if (Number.isSafeInteger(info.lotSize) && info.lotSize > 0) known.set(info.symbol, info.lotSize);
  return (symbol) => known.get(symbol) ?? marketLotSizes(symbol);
}
