// Loads candle files (CSV or Parquet) from a file or a folder into columns: the symbol comes from the file
// name ("700.HK.csv", "AAPL.US.parquet"; "AAPL.csv" when the caller asks for AAPL.US) or from the caller, and
// each file's times are read in its market's zone.
import { readdir, stat } from 'node:fs/promises';
import { readInPieces, readIntoScratch, releaseScratch } from './file-bytes.js';
import { basename, join } from 'node:path';
import type { Candle } from '../../domain/candle.js';
import { InvalidInputError } from '../../domain/errors.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import type { Period } from '../../domain/period.js';
import { marketOf, parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
import { BadDataError, type BadRowPolicy, type DataProblem } from './bad-data-error.js';
import { type CandleColumns, candlesOf } from './candle-columns.js';
import { readCandleCsv, readCandleCsvInPieces } from './candle-csv.js';
import { nextPiece } from './load-pieces.js';
import type { CandleFileOptions, LoadedColumns } from './loaded-columns.js';
import { type CandleFileJob, type LoadThreads, readInParallel, worthParallel } from './parallel-load.js';
import { partitionedHint } from './partitioned-folders.js';
import { SECURITIES_FILE } from './securities-file.js';

/** One symbol's history: its columns, and the same bars as Candle objects when a caller asks (made once). */
export interface CandleSeries {
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  readonly source: string;
  readonly columns: CandleColumns;
  readonly candles: Candle[];
}

export interface LoadOptions {
  /** Only these symbols; with a single file, the symbol of that file when its name is not one. */
  readonly symbols?: readonly SecuritySymbol[];
  readonly period?: Period;
  readonly onBadRow?: BadRowPolicy;
  /**
   * Read candle files on a helper thread as well as this one: 'auto' (default) when there are several and
   * they are big enough in all (parallel-load.ts); 'never' and 'always' for tests and measurements.
   */
  readonly parallel?: 'auto' | 'never' | 'always';
  /**
   * Stops the load (a Ctrl-C, say): CSV files are then read a few MB at a time, and the load rejects with the
   * signal's reason at the next piece after it aborts.
   */
  readonly signal?: AbortSignal;
}

export interface LoadResult {
  readonly series: CandleSeries[];
  readonly problems: readonly DataProblem[];
  readonly skippedRows: number;
  /** Whether the files were read on a helper thread as well (and how many it read). */
  readonly threads: LoadThreads;
}

const ONE_THREAD: LoadThreads = { threads: 1, helperFiles: 0 };

const EXTENSIONS = /\.(csv|parquet)$/i;

/** A series over columns; `candles` are made on first use. */
export function seriesOf(columns: CandleColumns): CandleSeries {
  let candles: Candle[] | undefined;
  return {
    symbol: columns.symbol,
    period: columns.period,
    source: columns.source,
    columns,
    get candles(): Candle[] {
      candles ??= candlesOf(columns);
      return candles;
    },
  };
}

/** Bad rows listed when a load fails on them (the count covers them all). */
const REPORTED_PROBLEMS = 10;

/** "0700.HK.csv" → 700.HK; undefined when the name is not a symbol. */
export function symbolFromFileName(path: string): SecuritySymbol | undefined {
  const name = fileStem(path);
  try {
    return parseSymbol(name);
  } catch {
    return undefined;
  }
}

/**
 * The wanted symbol a folder's file named by its code alone stands for (SPY.csv for SPY.US, as most exports
 * name them), when exactly one wanted symbol has that code and no file of its own.
 */
export function wantedByCode(
  path: string,
  wanted: readonly SecuritySymbol[] | undefined,
  named: ReadonlySet<SecuritySymbol | undefined>,
): SecuritySymbol | undefined {
  const code = fileStem(path);
  const matches = (wanted ?? []).filter((symbol) => !named.has(symbol) && symbolFromFileName(`${code}.${marketOf(symbol)}`) === symbol);
  return matches.length === 1 ? matches[0] : undefined;
}

/** "SPY" of "/data/SPY.csv": a candle file's name without its folder and extension. */
export function fileStem(path: string): string {
  return basename(path).replace(EXTENSIONS, '');
}

/** The corporate actions file beside candle data (symbol,date,kind,value; corporate-actions-file.ts). */
export const ACTIONS_FILE = 'actions.csv';

/** Files of a data folder that describe its candle files rather than being one. */
const SIDE_FILES: ReadonlySet<string> = new Set([SECURITIES_FILE, ACTIONS_FILE]);

/** Whether a path names a candle file this loader reads (.csv or .parquet, not a side file). */
export function isCandleFile(path: string): boolean {
  return EXTENSIONS.test(path) && !SIDE_FILES.has(basename(path).toLowerCase());
}

/** Reads one candle file (CSV or Parquet, by its extension) into columns; with `signal`, a CSV file in pieces. */
export async function readCandleFile(path: string, options: CandleFileOptions, signal?: AbortSignal): Promise<LoadedColumns> {
  // Neither reader keeps the bytes (the Parquet reader copies them before it first awaits), so they may sit
  // in the shared buffer; read at once, they also cost no wait for the file system's thread pool per file.
  if (!/\.parquet$/i.test(path))
    return signal === undefined
      ? readCandleCsv(readIntoScratch(path), options)
      : readCandleCsvInPieces(await readInPieces(path, signal), options, signal);
  // Loaded only for Parquet files: the library costs start-up time a CSV run need not pay.
  const { readCandleParquet } = await import('./candle-parquet.js');
  const loaded = await readCandleParquet(readIntoScratch(path), options);
  // Read whole: a stopped load stops after the file.
  if (signal !== undefined) await nextPiece(signal);
  return loaded;
}

/** Reads the files one after the other, on this thread. */
async function readEach(jobs: readonly CandleFileJob[], read: (job: CandleFileJob) => Promise<LoadedColumns>): Promise<LoadedColumns[]> {
  const loaded: LoadedColumns[] = [];
  for (const job of jobs) loaded.push(await read(job));
  return loaded;
}

export async function loadCandles(path: string, options: LoadOptions = {}): Promise<LoadResult> {
  try {
    return await loadCandleFiles(path, options);
  } finally {
    releaseScratch();
  }
}

/**
 * A folder's candle files, sorted. An entry named like one that is a folder (Spark and partitioned writers
 * make SPY.US.parquet/ of part files) is refused by name: read as a file it failed with EISDIR.
 */
async function candleFilesOf(folder: string): Promise<string[]> {
  const entries = (await readdir(folder, { withFileTypes: true })).filter((entry) => isCandleFile(entry.name));
  const inner = entries.find((entry) => entry.isDirectory());
  if (inner !== undefined)
    throw new InvalidInputError(
      `${join(folder, inner.name)} is a folder, not a candle file (Spark and partitioned Parquet writers make folders of part files): ` +
        `give one file per symbol, named after it (${inner.name} as a file)`,
      'data',
    );
  return entries
    .map((entry) => entry.name)
    .sort()
    .map((name) => join(folder, name));
}

async function loadCandleFiles(path: string, options: LoadOptions): Promise<LoadResult> {
  const info = await stat(path).catch(() => {
    throw new InvalidInputError(`data path ${path} does not exist`, 'data');
  });
  const files = info.isDirectory() ? await candleFilesOf(path) : [path];
  if (files.length === 0) throw new InvalidInputError(`no .csv or .parquet files in ${path}${await partitionedHint(path)}`, 'data');

  const wanted = options.symbols;
  const jobs: CandleFileJob[] = [];
  const sources = new Map<SecuritySymbol, string>();
  /** Files of the folder not named after a symbol (AAPL.csv rather than AAPL.US.csv), for the error below. */
  const unnamed: string[] = [];
  const named = new Set(files.map(symbolFromFileName));
  for (const file of files) {
    let symbol = symbolFromFileName(file);
    if (symbol === undefined) {
      if (files.length === 1 && wanted?.length === 1) symbol = wanted[0]!;
      else if (info.isDirectory()) {
        symbol = wantedByCode(file, wanted, named);
        if (symbol === undefined) {
          unnamed.push(basename(file));
          continue;
        }
      } else
        throw new InvalidInputError(
          (wanted?.length ?? 0) > 1
            ? `${file}: one file holds one symbol's bars, and its name is not a symbol: give --symbols one symbol for it, or a folder of SYMBOL.csv files for ${wanted!.join(', ')}`
            : `${file}: the file name is not a symbol (like 700.HK.csv); name the symbol with --symbols`,
          'symbols',
        );
    }
    if (wanted !== undefined && !wanted.includes(symbol)) {
      // One file given: its name is the symbol it holds, so "no file for X in FILE" would hide why.
      if (!info.isDirectory())
        throw new InvalidInputError(
          `${path} holds ${symbol} (a candle file's name is its symbol), not ${wanted.join(', ')}: give a file named ${wanted[0]}.csv or .parquet, or a folder of them`,
          'symbols',
        );
      continue;
    }
    const other = sources.get(symbol);
    if (other !== undefined)
      throw new InvalidInputError(`${path} has two files for ${symbol} (${basename(other)}, ${basename(file)}); keep one`, 'data');
    sources.set(symbol, file);
    jobs.push({
      path: file,
      options: {
        symbol,
        source: file,
        timeZone: timeZoneOf(marketOf(symbol)),
        ...(options.period === undefined ? {} : { period: options.period }),
        // Each file's bad rows are gathered; failing is decided over all of them below.
        onBadRow: 'skip',
      },
    });
  }
  const { signal } = options;
  const read = (job: CandleFileJob): Promise<LoadedColumns> => readCandleFile(job.path, job.options, signal);
  const parallel = options.parallel ?? 'auto';
  const { loaded, threads } =
    parallel === 'always' || (parallel === 'auto' && worthParallel(jobs))
      ? await readInParallel(jobs, read, undefined, signal)
      : { loaded: await readEach(jobs, read), threads: ONE_THREAD };
  const series: CandleSeries[] = [];
  const problems: DataProblem[] = [];
  let skippedRows = 0;
  for (const one of loaded) {
    problems.push(...one.problems);
    skippedRows += one.skippedRows;
    series.push(seriesOf(one.columns));
  }
  // Failing, the bad rows of every file are listed (the first ten), not only the first bad file's.
  if (skippedRows > 0 && (options.onBadRow ?? 'fail') === 'fail') throw new BadDataError(problems.slice(0, REPORTED_PROBLEMS), skippedRows);
  const missing = (wanted ?? []).filter((symbol) => !series.some((one) => one.symbol === symbol));
  if (missing.length > 0)
    throw new InvalidInputError(
      `no candle file for ${missing.join(', ')} in ${path} (looked for ${missing
        .slice(0, 2)
        .map((symbol) => `${symbol}.csv or ${symbol.slice(0, symbol.lastIndexOf('.'))}.csv`)
        .join(', ')}${missing.length > 2 ? ', …' : ''}, or .parquet)${unnamedHint(unnamed)}`,
      'symbols',
    );
  if (series.length === 0)
    throw new InvalidInputError(`no candle file named like SYMBOL.csv (e.g. 700.HK.csv) in ${path}${unnamedHint(unnamed)}`, 'data');
  return { series, problems, skippedRows, threads };
}

/**
 * "; its files AAPL.csv, IBM.csv are named by a code alone: …" (the folder's other candle files), with the
 * two ways out: --symbols with the code's market, or a symbol's name.
 */
export function unnamedHint(unnamed: readonly string[]): string {
  if (unnamed.length === 0) return '';
  const code = fileStem(unnamed[0]!);
  const example = /^\d+$/.test(code) ? `${code}.HK` : `${code.toUpperCase()}.US`;
  const fix = `read for --symbols of that code (${example} reads ${unnamed[0]}), or name ${unnamed.length === 1 ? 'it' : 'them'} like 700.HK.csv or AAPL.US.csv`;
  if (unnamed.length === 1) return `; its file ${unnamed[0]} is named by a code alone: ${fix}`;
  const shown = unnamed.slice(0, 3).join(', ') + (unnamed.length > 3 ? `, … (${unnamed.length} files)` : '');
  return `; its files ${shown} are named by a code alone: ${fix}`;
}
