// Candle series for simulator tests: a couple of market days of one-minute bars for an HK and a US symbol,
// deterministic prices on each market's price grid, and a writer of them as `SYMBOL.csv` files.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Candle } from '../../../src/domain/candle.js';
import { timeZoneOf } from '../../../src/domain/market-hours.js';
import { marketOf, parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import { fromLocal } from '../../../src/domain/time-zone.js';
import { formatCandleCsv } from '../../../src/feeds/history/candle-csv-writer.js';
import { madeTempFolder } from '../temp-folder.js';

export const HK = parseSymbol('700.HK');
export const US = parseSymbol('AAPL.US');

/** Local dates with bars (Tuesday to Thursday). */
export const DATES = ['2024-01-02', '2024-01-03', '2024-01-04'] as const;
export const BARS_PER_DAY = 30;

export function localInstant(symbol: SecuritySymbol, date: string, hour: number, minute: number): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return fromLocal({ year, month, day, hour, minute, second: 0 }, timeZoneOf(marketOf(symbol)));
}

/**
 * 30 one-minute bars from 09:30 local on each date. Prices walk up and down on a grid (0.2 for the HK
 * symbol around 300, 0.01 for the US one around 190), every bar rising or falling by one or two steps.
 */
export function minuteCandles(symbol: SecuritySymbol, dates: readonly string[] = DATES): Candle[] {
  const step = symbol === HK ? 0.2 : 0.01;
  const base = symbol === HK ? 300 : 190;
  const round = (value: number): number => Number(value.toFixed(2));
  const candles: Candle[] = [];
  let level = 0;
  dates.forEach((date) => {
    for (let index = 0; index < BARS_PER_DAY; index++) {
      const open = round(base + level * step);
      level += index % 5 < 3 ? 2 : -1;
      const close = round(base + level * step);
      const high = round(Math.max(open, close) + step);
      const low = round(Math.min(open, close) - step);
      candles.push({ symbol, period: '1m', time: localInstant(symbol, date, 9, 30 + index), open, high, low, close, volume: 10_000 });
    }
  });
  return candles;
}

/** Writes the series as `SYMBOL.csv` files in a fresh temporary folder and returns its path. */
export async function writeCandleFolder(series: readonly (readonly Candle[])[]): Promise<string> {
  const folder = madeTempFolder('sim-data-');
  for (const candles of series) {
    const first = candles[0]!;
    await writeFile(join(folder, `${first.symbol}.csv`), formatCandleCsv(candles, first.period, timeZoneOf(marketOf(first.symbol))));
  }
  return folder;
}
