// `trader data fetch`: downloads history candlesticks (cmd 27, paged within 60 calls per 30 s) into one candle
// CSV per symbol, appending page by page so an interrupted run keeps what it got, and resuming after the
// last bar a file already holds.
import { appendFile, readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Candle } from '../../domain/candle.js';
import { InvalidInputError } from '../../domain/errors.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { isIntraday, type Period } from '../../domain/period.js';
import { marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { localDate } from '../../domain/time-zone.js';
import { parseCandleCsv } from '../../feeds/history/candle-csv.js';
import { candleCsvHeader, formatCandleRow } from '../../feeds/history/candle-csv-writer.js';
import type { AdjustType } from '../../openapi/socket/commands.js';
import { nextDate } from '../../openapi/socket/history-pages.js';
import type { QuoteClient } from '../../openapi/socket/quote-client.js';

export interface FetchJob {
  readonly symbols: readonly SecuritySymbol[];
  readonly period: Period;
  readonly from: string;
  readonly to: string;
  readonly outDir: string;
  readonly adjust: AdjustType;
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

/** The time of the last bar already in `file`, if the file exists and has bars. */
async function lastBarTime(file: string, symbol: SecuritySymbol, period: Period): Promise<number | undefined> {
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) return undefined;
  const text = await readFile(file, 'utf8');
  if (text.trim() === '') return undefined;
  const parsed = parseCandleCsv(text, { symbol, source: file, timeZone: timeZoneOf(marketOf(symbol)), period, onBadRow: 'fail' });
  return parsed.candles.at(-1)?.time;
}

export async function fetchHistory(client: QuoteClient, job: FetchJob, progress: Progress): Promise<FetchResult[]> {
  await mkdir(job.outDir, { recursive: true });
  const results: FetchResult[] = [];
  for (const symbol of job.symbols) {
    const zone = timeZoneOf(marketOf(symbol));
    const file = join(job.outDir, `${symbol}.csv`);
    const last = await lastBarTime(file, symbol, job.period);
    // Intraday files resume on the last bar's own day (later bars of it may be missing), daily ones the day after.
    const resumeDate = last === undefined ? job.from : isIntraday(job.period) ? localDate(last, zone) : nextDate(localDate(last, zone));
    const from = resumeDate > job.from ? resumeDate : job.from;
    if (last === undefined) await writeFile(file, candleCsvHeader(job.period));
    let added = 0;
    if (from > job.to) {
      progress(symbol, `${file} already reaches ${job.to}`);
    } else {
      if (last !== undefined) progress(symbol, `resuming ${file} from ${from}`);
      for await (const page of client.historyPages(symbol, job.period, { from, to: job.to }, { adjust: job.adjust })) {
        const fresh = page.filter((candle: Candle) => last === undefined || candle.time > last);
        if (fresh.length === 0) continue;
        await appendFile(file, fresh.map((candle) => formatCandleRow(candle, zone)).join(''));
        added += fresh.length;
        progress(symbol, `${added} bars, through ${localDate(fresh.at(-1)!.time, zone)}`);
      }
    }
    results.push({ symbol, file, added, resumedFrom: from });
  }
  return results;
}

export function validateRange(from: string, to: string): void {
  if (from > to) throw new InvalidInputError(`--from ${from} is after --to ${to}`, '--from');
}
