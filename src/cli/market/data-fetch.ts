// `trader data fetch`: downloads history candlesticks (cmd 27, paged within 60 calls per 30 s) into one candle
// file per symbol, resuming after the last bar a file already holds. CSV files grow page by page, so an
// interrupted run keeps what it got; a Parquet file is written whole (to a temporary name, then renamed)
// when the symbol is done, the run fails or Ctrl-C stops it, with what it got. The symbols' static info (cmd 10: name,
// currency, lot size) goes into the folder's securities.csv, which the backtest venue enforces.
import { appendFile, mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Candle } from '../../domain/candle.js';
import { InvalidInputError } from '../../domain/errors.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { isIntraday, type Period } from '../../domain/period.js';
import { marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { localDate } from '../../domain/time-zone.js';
import { candlesOf, columnsOf } from '../../feeds/history/candle-columns.js';
import { candleCsvHeader, formatCandleRow } from '../../feeds/history/candle-csv-writer.js';
import { readCandleFile } from '../../feeds/history/candle-files.js';
import type { AdjustType } from '../../openapi/socket/commands.js';
import { nextDate } from '../../openapi/socket/history-pages.js';
import type { QuoteClient } from '../../openapi/socket/quote-client.js';
import type { SecurityStaticInfo } from '../../openapi/socket/quote-mapping.js';
import { readSecurities, SECURITIES_FILE, writeSecurities, type SecurityRow } from '../../feeds/history/securities-file.js';

export const FILE_FORMATS = ['csv', 'parquet'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export interface FetchJob {
  readonly symbols: readonly SecuritySymbol[];
  readonly period: Period;
  readonly from: string;
  readonly to: string;
  readonly outDir: string;
  readonly adjust: AdjustType;
  /** Default csv. */
  readonly format?: FileFormat;
  /** Ctrl-C: stop at once, keeping the bars already fetched (a Parquet file is written with them). */
  readonly signal?: AbortSignal;
}

export interface FetchResult {
  readonly symbol: SecuritySymbol;
  readonly file: string;
  /** Bars appended by this run. */
  readonly added: number;
  /** Where the run started: `from`, or the day after the file's last bar. */
  readonly resumedFrom: string;
}

export type Progress = (symbol: SecuritySymbol, message: string) => void;

/** The bars already in `file`, if it exists (undefined when it does not, or is an empty CSV). */
async function existingBars(file: string, symbol: SecuritySymbol, period: Period): Promise<Candle[] | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || info.size === 0) return undefined;
  const loaded = await readCandleFile(file, { symbol, source: file, timeZone: timeZoneOf(marketOf(symbol)), period, onBadRow: 'fail' });
  return candlesOf(loaded.columns);
}

export async function fetchHistory(client: QuoteClient, job: FetchJob, progress: Progress): Promise<FetchResult[]> {
  const format = job.format ?? 'csv';
  // Asked first: a symbol the service does not know would otherwise leave an empty file behind.
  const infos = job.symbols.length === 0 ? [] : await client.staticInfo(job.symbols);
  const unknown = job.symbols.filter((symbol) => !infos.some((info) => info.symbol === symbol));
  if (unknown.length > 0)
    throw new InvalidInputError(
      `no such security: ${unknown.join(', ')} (the service has no static info for ${unknown.length === 1 ? 'it' : 'them'})`,
      'SYMBOL',
    );
  for (const symbol of job.symbols) await refuseOtherFormat(job.outDir, symbol, format);
  await mkdir(job.outDir, { recursive: true });
  const results: FetchResult[] = [];
  for (const symbol of job.symbols) {
    if (job.signal?.aborted) break;
    const zone = timeZoneOf(marketOf(symbol));
    const file = join(job.outDir, `${symbol}.${format}`);
    const existing = await existingBars(file, symbol, job.period);
    const last = existing?.at(-1)?.time;
    // Intraday files resume on the last bar's own day (later bars of it may be missing), daily ones the day after.
    const resumeDate = last === undefined ? job.from : isIntraday(job.period) ? localDate(last, zone) : nextDate(localDate(last, zone));
    const from = resumeDate > job.from ? resumeDate : job.from;
    // A new CSV file is begun with its first bars: a range without any leaves no file.
    let begun = existing !== undefined;
    const fetched: Candle[] = [];
    let added = 0;
    if (from > job.to) {
      progress(symbol, `${file} already reaches ${job.to}`);
    } else {
      if (last !== undefined) progress(symbol, `resuming ${file} from ${from}`);
      try {
        const pages = client.historyPages(symbol, job.period, { from, to: job.to }, { adjust: job.adjust });
        for await (const page of untilAborted(pages, job.signal)) {
          const fresh = page.filter((candle: Candle) => last === undefined || candle.time > last);
          if (fresh.length === 0) continue;
          if (format === 'csv') {
            if (!begun) await writeFile(file, candleCsvHeader(job.period));
            begun = true;
            await appendFile(file, fresh.map((candle) => formatCandleRow(candle, zone)).join(''));
          } else fetched.push(...fresh);
          added += fresh.length;
          progress(symbol, `${added} bars, through ${localDate(fresh.at(-1)!.time, zone)}`);
        }
      } finally {
        if (format === 'parquet' && fetched.length > 0)
          await writeParquet(file, [...(existing ?? []), ...fetched], symbol, job.period, zone);
      }
    }
    if (existing === undefined && added === 0 && from <= job.to) progress(symbol, `no bars from ${from} to ${job.to}: no file written`);
    results.push({ symbol, file, added, resumedFrom: from });
  }
  await saveStaticInfo(infos, job.outDir);
  return results;
}

/**
 * The pages until `signal` aborts. A page in flight is not waited for: a call can wait its turn under the
 * service's limit of 60 per 30 s, and a stalled service would hold Ctrl-C up for the call's whole timeout.
 */
async function* untilAborted<T>(pages: AsyncGenerator<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  if (signal === undefined) return yield* pages;
  const aborted = new Promise<'aborted'>((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  for (;;) {
    const next = pages.next();
    const result = await Promise.race([next, aborted]);
    if (result === 'aborted') {
      // Settles (or fails) when the connection closes; nobody reads it any more.
      next.catch(() => undefined);
      return;
    }
    if (result.done === true) return;
    yield result.value;
  }
}

/** A symbol's file in the other format would make the folder hold two files for it, which a backtest refuses. */
async function refuseOtherFormat(outDir: string, symbol: SecuritySymbol, format: FileFormat): Promise<void> {
  const other = FILE_FORMATS.find((one) => one !== format)!;
  const file = join(outDir, `${symbol}.${other}`);
  if ((await stat(file).catch(() => undefined)) === undefined) return;
  throw new InvalidInputError(
    `${file} exists: fetching ${symbol} as ${format} would leave two files of it in ${outDir}; fetch with --format ${other} to extend it${
      other === 'csv' ? ', or convert it first (trader data convert)' : ''
    }`,
    '--format',
  );
}

/** Merges the symbols' static info into the folder's securities file, keeping what the user set (the tick). */
async function saveStaticInfo(infos: readonly SecurityStaticInfo[], outDir: string): Promise<void> {
  if (infos.length === 0) return;
  const file = join(outDir, SECURITIES_FILE);
  const securities: Record<string, SecurityRow> = { ...(await readSecurities(file)) };
  for (const info of infos) {
    const name = info.nameEn || info.nameHk || info.nameCn;
    securities[info.symbol] = {
      ...securities[info.symbol],
      ...(name === '' ? {} : { name }),
      ...(info.currency === '' ? {} : { currency: info.currency }),
      ...(info.lotSize > 0 ? { lotSize: info.lotSize } : {}),
    };
  }
  await writeSecurities(file, securities);
}

/** Writes the whole file under a temporary name, then renames it: a reader never sees half a file. */
async function writeParquet(file: string, candles: readonly Candle[], symbol: SecuritySymbol, period: Period, zone: string): Promise<void> {
  const partial = `${file}.partial`;
  const { writeCandleParquet } = await import('../../feeds/history/candle-parquet.js');
  await writeFile(partial, writeCandleParquet(columnsOf(candles, { symbol, period, source: file }), zone));
  await rename(partial, file);
}

export function validateRange(from: string, to: string): void {
  if (from > to) throw new InvalidInputError(`--from ${from} is after --to ${to}`, '--from');
}
