// The candle history of a backtest: loaded from a file or folder of CSV or Parquet files into columns
// (loadCandles, with the bad-row policy), checked to share one period and one currency, and the defaults
// for which symbols a run uses.
import { readdir, stat } from 'node:fs/promises';
import { InvalidInputError } from '../domain/errors.js';
import type { Period } from '../domain/period.js';
import { currencyOf, marketOf, type SecuritySymbol } from '../domain/symbol.js';
import type { Candle } from '../domain/candle.js';
import { type BadRowPolicy, type DataProblem, describeProblem } from '../feeds/history/bad-data-error.js';
import { candleColumns, columnsOf } from '../feeds/history/candle-columns.js';
import type { LoadThreads } from '../feeds/history/parallel-load.js';
import { isCandleFile, loadCandles, seriesOf, symbolFromFileName, unnamedHint, type CandleSeries } from '../feeds/history/candle-files.js';
import { partitionedHint } from '../feeds/history/partitioned-folders.js';

export interface BacktestData {
  /** One series per symbol, in the order the reports list them. */
  readonly series: readonly CandleSeries[];
  /** The period of the data bars (shared by every series). */
  readonly period: Period;
  /** The currency of every symbol: the account's currency. */
  readonly currency: string;
  /** Rows dropped under `--on-bad-row skip` (the first few are listed in `problems`). */
  readonly skippedRows: number;
  readonly problems: readonly DataProblem[];
  /** How the files were read (threads), when they were read from files. */
  readonly threads?: LoadThreads;
}

export interface DataOptions {
  /** Only these symbols (each must have a file). */
  readonly symbols?: readonly SecuritySymbol[];
  readonly onBadRow?: BadRowPolicy;
  /** Stops the load (see LoadOptions.signal). */
  readonly signal?: AbortSignal;
}

export async function loadBacktestData(path: string, options: DataOptions = {}): Promise<BacktestData> {
  const loaded = await loadCandles(path, {
    ...(options.symbols === undefined ? {} : { symbols: options.symbols }),
    ...(options.onBadRow === undefined ? {} : { onBadRow: options.onBadRow }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { ...backtestData(loaded.series, loaded.skippedRows, loaded.problems), threads: loaded.threads };
}

/** Series made as candles elsewhere (tests, benchmarks); they become columns. */
export interface CandleSeriesInput {
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  readonly source: string;
  readonly candles: readonly Candle[];
}

/** Checks series loaded (or built) elsewhere: at least one bar, one period, one currency. */
export function backtestData(
  input: readonly (CandleSeries | CandleSeriesInput)[],
  skippedRows = 0,
  problems: readonly DataProblem[] = [],
): BacktestData {
  const series = input.map((one) => ('columns' in one ? one : seriesOf(columnsOf(one.candles, one))));
  const first = series[0];
  if (first === undefined || series.every((one) => one.columns.length === 0)) {
    const sources = series.map((one) => one.source);
    const named = sources.length > 3 ? `${sources.slice(0, 3).join(', ')} …` : sources.join(', ');
    const [problem] = problems;
    if (skippedRows > 0 && problem !== undefined)
      throw new InvalidInputError(
        `the candle data has no bars: all ${skippedRows} of its rows were bad and skipped, e.g. ${describeProblem(problem)}`,
        'data',
      );
    const empty = sources.every((source) => /\.parquet$/i.test(source)) ? 'no rows' : 'no rows after the header';
    throw new InvalidInputError(`the candle data has no bars${named === '' ? '' : ` (${named}: ${empty})`}`, 'data');
  }
  const periods = new Set(series.map((one) => one.period));
  if (periods.size > 1) {
    throw new InvalidInputError(
      `the data files have different periods (${series.map((one) => `${one.source}: ${one.period}`).join(', ')}); use files of one period`,
      'data',
    );
  }
  const currencies = new Set(series.map((one) => currencyOf(marketOf(one.symbol))));
  if (currencies.size > 1) {
    throw new InvalidInputError(
      `the symbols trade in different currencies (${[...currencies].join(', ')}); a backtest account has one currency, so run them separately`,
      'symbols',
    );
  }
  return { series, period: first.period, currency: [...currencies][0]!, skippedRows, problems };
}

/**
 * The symbols a run uses when --symbols is not given: a single file's own symbol (from its name); for a
 * folder, every symbol with a SYMBOL.csv or SYMBOL.parquet file in it (`onUnread` is told of files there named
 * by a code alone, which are then not read).
 */
export async function symbolsOfDataPath(path: string, onUnread?: (note: string) => void): Promise<readonly string[] | undefined> {
  const info = await stat(path).catch(() => {
    throw new InvalidInputError(`data path ${path} does not exist`, 'data');
  });
  if (info.isDirectory()) {
    const files = (await readdir(path)).filter((name) => isCandleFile(name));
    const named = [...new Set(files.map((name) => symbolFromFileName(name)).filter((symbol) => symbol !== undefined))].sort();
    const unnamed = files.filter((name) => symbolFromFileName(name) === undefined).sort();
    // Beside files named after symbols, these would be left out without a word.
    if (named.length > 0 && unnamed.length > 0) onUnread?.(`note: ${path} has candle files not read${unnamedHint(unnamed)}\n`);
    if (named.length === 0)
      throw new InvalidInputError(
        `no candle file named like SYMBOL.csv or SYMBOL.parquet (e.g. 700.HK.csv) in ${path}${unnamedHint(files.sort())}${await partitionedHint(path)}`,
        'data',
      );
    return named;
  }
  const symbol = symbolFromFileName(path);
  if (symbol === undefined)
    throw new InvalidInputError(`${path}: the file name is not a symbol (like 700.HK.csv); name the symbol with --symbols`, 'symbols');
  return [symbol];
}

/** The bar times of the data's series, each once, in order. */
export function barTimes(data: BacktestData): number[] {
  return [...new Set(data.series.flatMap((series) => Array.from(series.columns.time.subarray(0, series.columns.length))))].sort(
    (a, b) => a - b,
  );
}

/** The bars with start times in [from, to) (epoch ms), for --from/--to and walk-forward windows: views, not copies. */
export function sliceData(data: BacktestData, from: number, to: number): BacktestData {
  return {
    ...data,
    series: data.series.map((series) => {
      const columns = series.columns;
      const start = firstAtOrAfter(columns.time, columns.length, from);
      const end = firstAtOrAfter(columns.time, columns.length, to);
      const cut = (column: Float64Array): Float64Array => column.subarray(start, end);
      return seriesOf(
        candleColumns(columns, {
          length: end - start,
          time: cut(columns.time),
          open: cut(columns.open),
          high: cut(columns.high),
          low: cut(columns.low),
          close: cut(columns.close),
          volume: cut(columns.volume),
          turnover: columns.turnover === undefined ? undefined : cut(columns.turnover),
          pricePlaces: columns.pricePlaces,
          volumePlaces: columns.volumePlaces,
        }),
      );
    }),
  };
}

function firstAtOrAfter(times: Float64Array, length: number, time: number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! < time) low = middle + 1;
    else high = middle;
  }
  return low;
}
