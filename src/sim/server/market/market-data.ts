// The simulator's candles: loaded from CSV files or folders (or handed over in memory), filtered to the
// wanted symbols, and split at the replay start: bars before it are history only, the rest become ticks.
import type { Candle } from '../../../domain/candle.js';
import { InvalidInputError } from '../../../domain/errors.js';
import { timeZoneOf } from '../../../domain/market-hours.js';
import type { Period } from '../../../domain/period.js';
import { marketOf, type SecuritySymbol } from '../../../domain/symbol.js';
import { startOfLocalDay } from '../../../domain/time-zone.js';
import { describeProblem, type BadRowPolicy } from '../../../feeds/history/bad-data-error.js';
import { loadCandles } from '../../../feeds/history/candle-files.js';
import { silentLogger, type Logger } from '../../../log/logger.js';

export interface SymbolSeries {
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  /** Every bar, oldest first. */
  readonly candles: readonly Candle[];
  /** Index of the first bar the replay plays (bars before it are history). */
  readonly replayFrom: number;
}

export interface MarketDataOptions {
  /** CSV files or folders of `SYMBOL.csv` files. */
  readonly data?: string | readonly string[];
  /** Candle series in memory (one array per symbol, oldest first); used instead of `data`. */
  readonly candles?: readonly (readonly Candle[])[];
  /** Only these symbols (all when absent). */
  readonly symbols?: readonly SecuritySymbol[];
  /** YYYY-MM-DD: the replay starts at this market-local date; earlier bars are served as history. */
  readonly from?: string;
  /** Bad CSV rows: 'fail' (the default) stops with the first ten listed, 'skip' drops them with a warning each. */
  readonly onBadRow?: BadRowPolicy;
  readonly logger?: Logger;
  /** Stops reading the files (see LoadOptions.signal). */
  readonly signal?: AbortSignal;
}

export async function loadMarketData(options: MarketDataOptions): Promise<SymbolSeries[]> {
  const raw = options.candles !== undefined ? options.candles.filter((candles) => candles.length > 0) : await readFiles(options);
  const bySymbol = new Map<SecuritySymbol, readonly Candle[]>();
  for (const candles of raw) {
    const symbol = candles[0]!.symbol;
    if (bySymbol.has(symbol)) throw new InvalidInputError(`candles for ${symbol} are given twice`, 'data');
    if (options.symbols === undefined || options.symbols.includes(symbol)) bySymbol.set(symbol, candles);
  }
  const missing = (options.symbols ?? []).filter((symbol) => !bySymbol.has(symbol));
  if (missing.length > 0) throw new InvalidInputError(`no candles for ${missing.join(', ')}`, 'symbols');
  if (bySymbol.size === 0) throw new InvalidInputError('the simulator needs candle data for at least one symbol', 'data');
  return [...bySymbol].map(([symbol, candles]) => ({
    symbol,
    period: candles[0]!.period,
    candles,
    replayFrom: replayStart(symbol, candles, options.from),
  }));
}

async function readFiles(options: MarketDataOptions): Promise<(readonly Candle[])[]> {
  const paths = typeof options.data === 'string' ? [options.data] : (options.data ?? ['backtest-data']);
  const logger = options.logger ?? silentLogger;
  const series: (readonly Candle[])[] = [];
  for (const path of paths) {
    // One path holds every wanted symbol: only their files are read (a folder may name them SPY.csv for
    // SPY.US, which only the wanted symbols tell). Of several paths each may hold some: all are read.
    const wanted = paths.length === 1 && options.symbols !== undefined ? { symbols: options.symbols } : {};
    const loaded = await loadCandles(path, {
      onBadRow: options.onBadRow ?? 'fail',
      ...wanted,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    for (const problem of loaded.problems) logger.warn({ problem: describeProblem(problem) }, 'skipped a bad candle row');
    if (loaded.skippedRows > loaded.problems.length) logger.warn({ path, skippedRows: loaded.skippedRows }, 'skipped bad candle rows');
    for (const one of loaded.series) {
      // A symbol's file with a header and no rows leaves nothing to replay or to quote: bad input, named.
      if (one.candles.length === 0) throw new InvalidInputError(`${one.source}: no rows after the header`, 'data');
      series.push(one.candles);
    }
  }
  return series;
}

function replayStart(symbol: SecuritySymbol, candles: readonly Candle[], from: string | undefined): number {
  if (from === undefined) return 0;
  const start = startOfLocalDay(from, timeZoneOf(marketOf(symbol)));
  const index = candles.findIndex((candle) => candle.time >= start);
  return index < 0 ? candles.length : index;
}
