// Reads the candle CSV format of DESIGN.md: a header naming time|date|datetime, open, high, low, close,
// volume (any case, any order, extra columns ignored); times in the market's local zone unless they carry
// an offset. Every bad row is reported with its line and reason.
import type { Candle } from '../../domain/candle.js';
import { InvalidInputError } from '../../domain/errors.js';
import { isIntraday, PERIODS, periodMinutes, type Period } from '../../domain/period.js';
import { fromLocal } from '../../domain/time-zone.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import { BadDataError, type BadRowPolicy, type DataProblem } from './bad-data-error.js';

export interface CandleCsvOptions {
  readonly symbol: SecuritySymbol;
  /** File name (or other label) used in problem reports. */
  readonly source: string;
  /** Zone of times without an offset (the market's zone). */
  readonly timeZone: string;
  /** Inferred from the times when omitted: date-only → day, else the smallest bar spacing. */
  readonly period?: Period;
  readonly onBadRow?: BadRowPolicy;
  /** Problems listed in a failure; more are counted. */
  readonly maxReported?: number;
}

export interface CandleCsvResult {
  readonly candles: Candle[];
  readonly period: Period;
  /** Rows dropped under the skip policy (the first `maxReported` are listed). */
  readonly problems: readonly DataProblem[];
  readonly skippedRows: number;
}

/** The checked rows of a file, before they become candles (loadCandles makes several files' candles in time order). */
export interface CandleRows extends Omit<CandleCsvResult, 'candles'> {
  readonly rows: readonly CandleRow[];
}

export interface CandleRow {
  readonly line: number;
  readonly time: ParsedTime;
  /** open, high, low, close, volume. */
  readonly values: readonly number[];
  readonly turnover: number | undefined;
}

const TIME_COLUMNS = ['time', 'date', 'datetime', 'timestamp'];
const PRICE_COLUMNS = ['open', 'high', 'low', 'close'] as const;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

export interface ParsedTime {
  readonly instant: number;
  readonly dateOnly: boolean;
}

export function parseCandleCsv(text: string, options: CandleCsvOptions): CandleCsvResult {
  const { rows, period, problems, skippedRows } = parseCandleRows(text, options);
  return { candles: rows.map((row) => candleOf(row, options.symbol, period)), period, problems, skippedRows };
}

export function candleOf(row: CandleRow, symbol: SecuritySymbol, period: Period): Candle {
  const { time, values, turnover } = row;
  const candle = {
    symbol,
    period,
    time: time.instant,
    open: values[0]!,
    high: values[1]!,
    low: values[2]!,
    close: values[3]!,
    volume: values[4]!,
  };
  return turnover === undefined ? candle : { ...candle, turnover };
}

/** The rows of a candle CSV, checked (bad rows reported by line, under the skip or fail policy), and its period. */
export function parseCandleRows(text: string, options: CandleCsvOptions): CandleRows {
  const maxReported = options.maxReported ?? 10;
  const lines = text.split(/\r?\n/);
  const header = splitRow(lines[0] ?? '').map((cell) => cell.trim().toLowerCase());
  const timeIndex = header.findIndex((name) => TIME_COLUMNS.includes(name));
  const [openIndex, highIndex, lowIndex, closeIndex] = PRICE_COLUMNS.map((name) => header.indexOf(name)) as [
    number,
    number,
    number,
    number,
  ];
  const volumeIndex = header.indexOf('volume');
  const turnoverIndex = header.indexOf('turnover');
  const missing = [
    timeIndex < 0 ? 'time|date|datetime' : '',
    ...PRICE_COLUMNS.filter((_, i) => [openIndex, highIndex, lowIndex, closeIndex][i]! < 0),
    volumeIndex < 0 ? 'volume' : '',
  ].filter((name) => name !== '');
  if (missing.length > 0) {
    throw new BadDataError(
      [
        {
          source: options.source,
          line: 1,
          reason: `header lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (found: ${header.join(', ')})`,
        },
      ],
      1,
    );
  }
  const width = Math.max(timeIndex, openIndex, highIndex, lowIndex, closeIndex, volumeIndex) + 1;

  const problems: DataProblem[] = [];
  let problemCount = 0;
  const report = (line: number, reason: string): void => {
    problemCount++;
    if (problems.length < maxReported) problems.push({ source: options.source, line, reason });
  };

  const rows: CandleRow[] = [];
  let previous: { time: number; line: number } | undefined;
  for (let index = 1; index < lines.length; index++) {
    const raw = lines[index]!;
    if (raw.trim() === '') continue;
    const line = index + 1;
    const cells = splitRow(raw);
    if (cells.length < width) {
      report(line, `expected at least ${width} columns, found ${cells.length}`);
      continue;
    }
    const time = parseTime(cells[timeIndex]!.trim(), options.timeZone);
    if (time === undefined) {
      report(line, `unparseable time "${cells[timeIndex]}"`);
      continue;
    }
    const values: number[] = [];
    let bad: string | undefined;
    for (const [name, column] of [
      ['open', openIndex],
      ['high', highIndex],
      ['low', lowIndex],
      ['close', closeIndex],
      ['volume', volumeIndex],
    ] as const) {
      const cell = cells[column]!.trim();
      const value = cell === '' ? Number.NaN : Number(cell);
      if (!Number.isFinite(value) || value < 0) {
        bad = `unparseable ${name} "${cell}"`;
        break;
      }
      values.push(value);
    }
    if (bad !== undefined) {
      report(line, bad);
      continue;
    }
    const [open, high, low, close] = values as [number, number, number, number];
    if (high < low) {
      report(line, `high ${high} is below low ${low}`);
      continue;
    }
    if (open > high || open < low || close > high || close < low) {
      report(line, `${open > high || open < low ? `open ${open}` : `close ${close}`} is outside the bar's range [${low}, ${high}]`);
      continue;
    }
    if (previous !== undefined && time.instant === previous.time) {
      report(line, `duplicate bar: same time as line ${previous.line}`);
      continue;
    }
    if (previous !== undefined && time.instant < previous.time) {
      report(line, `time goes backwards: earlier than line ${previous.line}`);
      continue;
    }
    previous = { time: time.instant, line };
    const turnoverCell = turnoverIndex >= 0 ? cells[turnoverIndex]?.trim() : undefined;
    const turnover = turnoverCell === undefined || turnoverCell === '' ? undefined : Number(turnoverCell);
    rows.push({ line, time, values, turnover: turnover !== undefined && Number.isFinite(turnover) ? turnover : undefined });
  }

  if (problemCount > 0 && (options.onBadRow ?? 'fail') === 'fail') throw new BadDataError(problems, problemCount);

  const period =
    options.period ??
    inferPeriod(
      rows.map((row) => row.time),
      options.source,
    );
  return { rows, period, problems, skippedRows: problemCount };
}

function splitRow(line: string): string[] {
  return line.split(',');
}

function parseTime(text: string, timeZone: string): ParsedTime | undefined {
  if (/^\d{9,13}$/.test(text)) {
    const number = Number(text);
    return { instant: text.length >= 12 ? number : number * 1000, dateOnly: false };
  }
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, offset] = match;
  const fields = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
  };
  if (
    fields.month < 1 ||
    fields.month > 12 ||
    fields.day < 1 ||
    fields.day > 31 ||
    fields.hour > 23 ||
    fields.minute > 59 ||
    fields.second > 59
  )
    return undefined;
  const dateOnly = hour === undefined;
  if (offset !== undefined) {
    const naive = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
    if (offset === 'Z') return { instant: naive, dateOnly };
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const offsetMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    return { instant: naive - offsetMs, dateOnly };
  }
  return { instant: fromLocal(fields, timeZone), dateOnly };
}

function inferPeriod(times: readonly ParsedTime[], source: string): Period {
  if (times.length === 0 || times.every((time) => time.dateOnly)) return 'day';
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < Math.min(times.length, 2000); i++) {
    const gap = times[i]!.instant - times[i - 1]!.instant;
    if (gap > 0 && gap < smallest) smallest = gap;
  }
  if (!Number.isFinite(smallest) || smallest >= 86_400_000) return 'day';
  const minutes = smallest / 60_000;
  const period = [...PERIODS].reverse().find((candidate) => isIntraday(candidate) && periodMinutes(candidate)! <= minutes);
  if (period === undefined)
    throw new InvalidInputError(`${source}: bars ${minutes} minutes apart match no period; pass --period`, 'period');
  return period;
}
