// `trader data convert`: candle CSV files into Parquet (one SYMBOL.parquet per SYMBOL.csv), read and checked
// exactly as a backtest reads them, so a converted folder backtests to the same result, faster to load. What
// else a backtest reads goes beside the Parquet files (data-convert-side-files.ts). An abort (Ctrl-C) stops it
// between files: the file in flight is finished, the rest left for another run.
import { mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InvalidInputError } from '../../domain/errors.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import type { Period } from '../../domain/period.js';
import { type Market, marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import type { BadRowPolicy } from '../../feeds/history/bad-data-error.js';
import { fileStem, readCandleFile, symbolFromFileName } from '../../feeds/history/candle-files.js';
import { writeCandleParquet } from '../../feeds/history/candle-parquet.js';
import { ACTIONS_FILE, candleFileActionsOf } from '../../feeds/history/corporate-actions-file.js';
import { isSideFile, planSideFiles, type SideFileSource, writeSideFile } from './data-convert-side-files.js';

export interface ConvertJob {
  /** CSV files, or folders of them. */
  readonly inputs: readonly string[];
  /** Folder of the Parquet files; default: beside each CSV file. */
  readonly outDir?: string;
  /** The symbol of a single file whose name is not one. */
  readonly symbol?: SecuritySymbol;
  /** The market of files named by their code alone (SPY.csv → SPY.US with US). */
  readonly market?: Market;
  readonly period?: Period;
  readonly onBadRow: BadRowPolicy;
  /** Stops the run before the next file; what was converted is kept, with its side files. */
  readonly signal?: AbortSignal;
}

export interface ConvertResult {
  readonly input: string;
  readonly output: string;
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  readonly bars: number;
  /** Rows dropped under --on-bad-row skip. */
  readonly skippedRows: number;
  /** Dividends and splits of the file's `Dividends`/`Stock Splits` columns, kept in `actionsFile`. */
  readonly actions: number;
  readonly actionsFile?: string;
}

export interface ConvertRun {
  /** The files converted, in order: all of them unless the signal stopped the run. */
  readonly results: readonly ConvertResult[];
  /** How many CSV files the inputs hold. */
  readonly files: number;
}

export async function convertToParquet(job: ConvertJob, progress: (message: string) => void): Promise<ConvertRun> {
  const files = await csvFiles(job.inputs);
  if (job.symbol !== undefined && files.length !== 1)
    throw new InvalidInputError(`--symbol names the symbol of one file; ${files.length} files were given`, '--symbol');
  const targets = files.map((file) => {
    const symbol =
      job.symbol ??
      symbolFromFileName(file) ??
      (job.market === undefined ? undefined : symbolFromFileName(`${fileStem(file)}.${job.market}`));
    if (symbol === undefined)
      throw new InvalidInputError(
        job.market === undefined
          ? `${file}: the file name is not a symbol (like 700.HK.csv); name it with --symbol, or give the market of files named by their code with --market`
          : `${file}: "${fileStem(file)}" is not a security code`,
        job.market === undefined ? '--symbol' : 'input',
      );
    return { file, symbol, output: join(job.outDir ?? dirname(file), `${symbol}.parquet`) };
  });
  const outputs = new Map<string, string>();
  for (const { file, output } of targets) {
    const other = outputs.get(output);
    if (other !== undefined) throw new InvalidInputError(`${other} and ${file} would both become ${output}`, 'input');
    outputs.set(output, file);
  }
  // A Parquet file has no columns for them: they go to the output folder's actions.csv, read as the CSV's were.
  const sources: SideFileSource[] = [];
  for (const target of targets)
    sources.push({ input: target.file, output: target.output, actions: await candleFileActionsOf(target.file, target.symbol) });
  let sideFiles = await planSideFiles(sources);
  const results: ConvertResult[] = [];
  for (const [index, { file, symbol, output }] of targets.entries()) {
    if (job.signal?.aborted) {
      // The side files of the files converted, so that those backtest as their CSV files did.
      sideFiles = await planSideFiles(sources.slice(0, index));
      break;
    }
    const loaded = await readCandleFile(file, {
      symbol,
      source: file,
      timeZone: timeZoneOf(marketOf(symbol)),
      onBadRow: job.onBadRow,
      ...(job.period === undefined ? {} : { period: job.period }),
    });
    await mkdir(dirname(output), { recursive: true });
    // Written under a temporary name and renamed, so an interrupted conversion never leaves half a file.
    await writeFile(`${output}.partial`, writeCandleParquet(loaded.columns, timeZoneOf(marketOf(symbol))));
    await rename(`${output}.partial`, output);
    const { columns } = loaded;
    const actions = sources[index]!.actions.length;
    const actionsFile = join(dirname(output), ACTIONS_FILE);
    progress(
      `${file} → ${output}: ${columns.length} ${columns.period} bars${loaded.skippedRows > 0 ? `, ${loaded.skippedRows} bad rows skipped` : ''}${
        actions > 0
          ? `; its ${plural(actions, 'dividend or split', 'dividends and splits')} (Dividends, Stock Splits columns) → ${actionsFile}`
          : ''
      }`,
    );
    results.push({
      input: file,
      output,
      symbol,
      period: columns.period,
      bars: columns.length,
      skippedRows: loaded.skippedRows,
      actions,
      ...(actions > 0 ? { actionsFile } : {}),
    });
  }
  for (const sideFile of sideFiles) {
    await writeSideFile(sideFile);
    const what = [
      ...(sideFile.copied.length > 0 ? [`${sideFile.merged ? 'merged' : 'copied'} from ${sideFile.copied.join(', ')}`] : []),
      ...(sideFile.addedActions > 0
        ? [
            `${plural(sideFile.addedActions, 'dividend or split', 'dividends and splits')} added from the CSV files' Dividends and Stock Splits columns`,
          ]
        : []),
    ];
    progress(`${sideFile.file}: ${what.join('; ')}`);
  }
  return { results, files: targets.length };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

async function csvFiles(inputs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const info = await stat(input).catch(() => {
      throw new InvalidInputError(`${input} does not exist`, 'input');
    });
    if (!info.isDirectory()) {
      if (!/\.csv$/i.test(input)) throw new InvalidInputError(`${input}: not a .csv file`, 'input');
      if (isSideFile(input))
        throw new InvalidInputError(`${input}: not a candle file (convert its folder: it is copied beside the Parquet files)`, 'input');
      files.push(input);
      continue;
    }
    // securities.csv and actions.csv are not candle files (the side files copied beside the Parquet files).
    const names = (await readdir(input)).filter((name) => /\.csv$/i.test(name) && !isSideFile(name)).sort();
    if (names.length === 0) throw new InvalidInputError(`no .csv files in ${input}`, 'input');
    files.push(...names.map((name) => join(input, name)));
  }
  return files;
}
