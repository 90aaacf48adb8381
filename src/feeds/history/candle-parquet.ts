// Candle history in Parquet, through hyparquet (read) and hyparquet-writer (write). Written files have a
// `date` (DATE, the market-local day) or `datetime` (TIMESTAMP, UTC ms) column, DOUBLE prices and volume,
// an optional DOUBLE turnover, and the symbol, period and decimal places in the file's key-value metadata.
// Read files may come from elsewhere (pandas, DuckDB…): columns are found by name as in the CSV format,
// times may be TIMESTAMP (UTC, or local: the market's wall time), DATE, integers (epoch s, ms, µs or ns) or text,
// numbers any numeric type.
import { parquetMetadata, parquetRead } from 'hyparquet';
import type { FileMetaData, SchemaElement } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { DAY_MS } from '../../domain/civil-date.js';
import { isIntraday, PERIODS } from '../../domain/period.js';
import { ZoneRules } from '../../domain/time-zone.js';
import {
  BadDataError,
  barRangeProblem,
  emptyCellProblem,
  inexactProblem,
  valueProblem,
  type DataProblem,
  unsortedRowsError,
} from './bad-data-error.js';
import { type CandleColumns, ColumnBuilder, placesOf } from './candle-columns.js';
import { type CandleFileOptions, inferPeriod, type LoadedColumns } from './loaded-columns.js';
import { pandasIndexColumn } from './pandas-index.js';
import { compressorsFor } from './parquet-codecs.js';
import { copyDecimals } from './parquet-decimal.js';
import { isFlatTopColumn, readFlatColumn } from './parquet-pages.js';
import { rowRanges } from './parquet-row-ranges.js';
import { copyIntegerTimes, instants, isIntegerTime, joined, type ReadTimes, storedInstants, timestampUnit } from './parquet-times.js';
import { SYMBOL_COLUMNS, SymbolColumnValues } from './symbol-column.js';

/** The key of our entry in a file's key-value metadata. */
export const PARQUET_METADATA_KEY = 'longport-trader';

interface OwnMetadata {
  readonly symbol?: string;
  readonly period?: string;
  readonly pricePlaces?: number;
  readonly volumePlaces?: number;
}

const TIME_COLUMNS = ['time', 'date', 'datetime', 'timestamp'];
const VALUE_COLUMNS = ['open', 'high', 'low', 'close', 'volume'] as const;

/**
 * How a file's columns are read: flat ones page by page through hyparquet's page decoders (`pages`), or all
 * through parquetRead (`hyparquet`, the reference the pages are tested against).
 */
export type CandleParquetReader = 'pages' | 'hyparquet';

/**
 * A candle Parquet file as columns, checked like a CSV file (problems name the row, counted from 1). The
 * bytes are copied before the first await: they may be a buffer the caller reuses.
 */
export async function readCandleParquet(
  bytes: Uint8Array,
  options: CandleFileOptions,
  reader: CandleParquetReader = 'pages',
): Promise<LoadedColumns> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(buffer);
  } catch (error) {
    throw new BadDataError(
      [{ source: options.source, line: 0, reason: `not a Parquet file (${(error as Error).message})` }],
      1,
      'unreadable candle data:',
    );
  }
  const top = topLevelColumns(metadata);
  const names = top.map((element) => element.name.toLowerCase());
  const timeAt = timeColumnAt(names, top, metadata);
  const valueAt = VALUE_COLUMNS.map((name) => names.indexOf(name));
  const turnoverAt = names.indexOf('turnover');
  const missing = [timeAt < 0 ? 'time|date|datetime|timestamp' : '', ...VALUE_COLUMNS.filter((_, index) => valueAt[index]! < 0)].filter(
    (name) => name !== '',
  );
  if (missing.length > 0) {
    const reason = `no column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (found: ${names.join(', ')})`;
    throw new BadDataError([{ source: options.source, line: 0, reason }], 1, 'unreadable candle data:');
  }
  const symbolAt = names.findIndex((name) => SYMBOL_COLUMNS.includes(name));
  const symbols = symbolAt < 0 ? undefined : new SymbolColumnValues(top[symbolAt]!.name);
  const wanted = [timeAt, ...valueAt, ...(turnoverAt >= 0 ? [turnoverAt] : []), ...(symbolAt >= 0 ? [symbolAt] : [])].map(
    (index) => top[index]!.name,
  );
  const rows = Number(metadata.num_rows);
  const timeElement = top[timeAt]!;
  // Value columns go straight into their floats, page by page, and so do stored dates and timestamps (days,
  // or ms); the pages of times of other kinds (text, INT96, plain integers) are joined first.
  const numberColumns = [...valueAt, ...(turnoverAt >= 0 ? [turnoverAt] : [])].map((index) => top[index]!);
  const floats = new Map<string, Float64Array>();
  /** The scale of each DECIMAL column. */
  const decimals = new Map<string, number>();
  for (const element of numberColumns) {
    floats.set(element.name, new Float64Array(rows));
    if (isDecimal(element)) decimals.set(element.name, element.scale ?? 0);
  }
  const perMs = isIntegerTime(timeElement) ? (timestampUnit(timeElement) ?? 1n) : undefined;
  const storedTimes = perMs === undefined ? undefined : new Float64Array(rows);
  const timePages: { rowStart: number; data: ArrayLike<unknown> }[] = [];
  /** Rows with a number no float holds exactly (an integer past 2^53, a long decimal), and why. */
  const inexact = new Map<number, string>();
  const compressors = await compressorsFor(metadata);
  // Timestamps and dates come back as their stored integers (hyparquet would box every one into an array),
  // decimals as theirs (read exactly here), and text without a UTF8 annotation as its bytes (which a decimal
  // of BYTE_ARRAY is).
  const stored = withStoredValues(metadata, [timeElement, ...numberColumns]);
  const take = (name: string, data: ArrayLike<unknown>, rowStart: number): void => {
    const into = floats.get(name);
    const scale = decimals.get(name);
    if (into !== undefined && scale !== undefined)
      copyDecimals(data, into, rowStart, scale, (row, text, value) => {
        if (!inexact.has(row)) inexact.set(row, inexactProblem(name, text, value));
      });
    else if (into !== undefined)
      copyNumbers(data, into, rowStart, (row, value) => {
        if (!inexact.has(row)) inexact.set(row, inexactProblem(name, String(value), Number(value)));
      });
    else if (name === symbols?.name) symbols.add(data, rowStart);
    else if (storedTimes !== undefined) copyIntegerTimes(data, storedTimes, rowStart, perMs!);
    else timePages.push({ rowStart, data });
  };
  // INT96 times (the only ones still converted) as ms.
  const parsers = { timestampFromNanoseconds: (value: bigint) => Number(value / 1_000_000n) };
  // Flat columns page by page (unless the reference read is asked for), in the file's order as parquetRead
  // hands them on (the first inexact number of a row is the one told); any other through parquetRead.
  const paged =
    reader === 'pages' ? top.map((element) => element.name).filter((name) => wanted.includes(name) && isFlatTopColumn(stored, name)) : [];
  const rest = wanted.filter((name) => !paged.includes(name));
  try {
    for (const name of paged)
      readFlatColumn(
        buffer,
        stored,
        name,
        { parsers, utf8: false, ...(compressors === undefined ? {} : { compressors }) },
        (data, rowStart) => take(name, data, rowStart),
      );
    if (rest.length > 0)
      for (const [rowStart, rowEnd] of rowRanges(metadata))
        await parquetRead({
          file: buffer,
          rowStart,
          rowEnd,
          ...(compressors === undefined ? {} : { compressors }),
          metadata: stored,
          columns: rest,
          utf8: false,
          parsers,
          onChunk: (chunk) => take(chunk.columnName, chunk.columnData, chunk.rowStart),
        });
  } catch (error) {
    // A codec no decompressor here reads (LZO), a damaged page: bad input, named by its file.
    const reason = `cannot read its columns ${wanted.join(', ')} (${(error as Error).message})`;
    throw new BadDataError([{ source: options.source, line: 0, reason }], 1, 'unreadable candle data:');
  }
  const manySymbols = symbols?.problem();
  if (manySymbols !== undefined)
    throw new BadDataError([{ source: options.source, line: 0, reason: manySymbols }], 1, 'unreadable candle data:');

  const zone = ZoneRules.of(options.timeZone);
  const times =
    storedTimes !== undefined
      ? storedInstants(storedTimes, timeElement, zone)
      : instants(
          timePages.length === 1 && timePages[0]!.rowStart === 0 ? timePages[0]!.data : joined(timePages, rows),
          timeElement,
          zone,
          rows,
        );
  const own = ownMetadata(metadata);
  const values = VALUE_COLUMNS.map((_, index) => numbers(floats.get(top[valueAt[index]!]!.name)!, top[valueAt[index]!]!));
  const turnover = turnoverAt >= 0 ? numbers(floats.get(top[turnoverAt]!.name)!, top[turnoverAt]!) : undefined;
  return checkedColumns(
    times,
    values as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array],
    turnover,
    options,
    own,
    inexact,
  );
}

/** Checks rows as the CSV reader does and keeps the good ones. */
function checkedColumns(
  times: ReadTimes,
  values: readonly [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array],
  turnover: Float64Array | undefined,
  options: CandleFileOptions,
  own: OwnMetadata,
  inexact: ReadonlyMap<number, string>,
): LoadedColumns {
  const [open, high, low, close, volume] = values;
  const maxReported = options.maxReported ?? 10;
  const problems: DataProblem[] = [];
  let problemCount = 0;
  let backwardRows = 0;
  const rows = times.instants.length;
  const tradedAt = (index: number): number => {
    const traded = turnover?.[index];
    return traded !== undefined && Number.isFinite(traded) ? traded : Number.NaN;
  };
  const push = (into: ColumnBuilder, index: number): void =>
    into.push(times.instants[index]!, open[index]!, high[index]!, low[index]!, close[index]!, volume[index]!, tradedAt(index));
  // Made at the first bad row, with the rows before it: while every row is good, the file's arrays are the columns.
  let builder: ColumnBuilder | undefined;
  const report = (index: number, reason: string): void => {
    if (builder === undefined) {
      builder = new ColumnBuilder(rows);
      for (let kept = 0; kept < index; kept += 1) push(builder, kept);
    }
    problemCount += 1;
    if (problems.length < maxReported) problems.push({ source: options.source, line: index + 1, reason, unit: 'row' });
  };
  let previousTime = Number.NaN;
  let previousRow = 0;
  // Only for the rows listed: a file of many clashes would look up the zone's rules for each.
  const clockChange = (index: number): string => (problems.length < maxReported ? times.clockChange(index, previousRow - 1) : '');
  for (let index = 0; index < rows; index += 1) {
    const row = index + 1;
    const time = times.instants[index]!;
    if (Number.isNaN(time)) {
      report(index, times.problem(index));
      continue;
    }
    if (inexact.size > 0 && inexact.has(index)) {
      report(index, inexact.get(index)!);
      continue;
    }
    let bad = -1;
    for (let field = 0; field < VALUE_COLUMNS.length && bad < 0; field += 1) {
      const value = values[field]![index]!;
      if (!(field < 4 ? value > 0 : value >= 0) || value === Number.POSITIVE_INFINITY) bad = field;
    }
    if (bad >= 0) {
      const value = values[bad]![index]!;
      // A missing cell (null) reads as NaN.
      report(index, Number.isNaN(value) ? emptyCellProblem(VALUE_COLUMNS[bad]!) : valueProblem(VALUE_COLUMNS[bad]!, String(value), value));
      continue;
    }
    const problem = barRangeProblem(open[index]!, high[index]!, low[index]!, close[index]!);
    if (problem !== undefined) {
      report(index, problem);
      continue;
    }
    if (time === previousTime) {
      report(index, `duplicate bar: same time as row ${previousRow}${clockChange(index)}`);
      continue;
    }
    if (time < previousTime) {
      backwardRows += 1;
      report(index, `time goes backwards: earlier than row ${previousRow}${clockChange(index)}`);
      continue;
    }
    previousTime = time;
    previousRow = row;
    if (builder !== undefined) push(builder, index);
  }
  if (backwardRows > 10 && backwardRows * 20 > rows) throw unsortedRowsError(options.source, backwardRows, rows, problems);
  if (problemCount > 0 && (options.onBadRow ?? 'fail') === 'fail') throw new BadDataError(problems, problemCount);
  const kept =
    builder ?? ColumnBuilder.adopting({ time: times.instants, open, high, low, close, volume, turnover: keptTurnover(turnover) });
  const ownPeriod = PERIODS.find((period) => period === own.period);
  const period = options.period ?? ownPeriod ?? inferPeriod(kept, times.dateOnly, options.source);
  const places =
    own.pricePlaces !== undefined && own.volumePlaces !== undefined
      ? { pricePlaces: own.pricePlaces, volumePlaces: own.volumePlaces }
      : undefined;
  return {
    columns: kept.finish({ symbol: options.symbol, period, source: options.source }, places),
    problems,
    skippedRows: problemCount,
  };
}

/** A turnover column as the builder keeps one: non-finite values are NaN, and a column without a value is none. */
function keptTurnover(turnover: Float64Array | undefined): Float64Array | undefined {
  if (turnover === undefined) return undefined;
  let any = false;
  for (let index = 0; index < turnover.length; index += 1) {
    if (Number.isFinite(turnover[index]!)) any = true;
    else turnover[index] = Number.NaN;
  }
  return any ? turnover : undefined;
}

/** A candle Parquet file of columns; `timeZone` is the market's (daily bars are written as its local dates). */
export function writeCandleParquet(columns: CandleColumns, timeZone: string): Uint8Array {
  const intraday = isIntraday(columns.period);
  const zone = ZoneRules.of(timeZone);
  const times = intraday
    ? { name: 'datetime', data: Array.from(columns.time) }
    : { name: 'date', data: Array.from(columns.time, (time) => Math.floor((time + zone.offsetAt(time)) / DAY_MS)) };
  const required = (name: string): SchemaElement => ({ name, type: 'DOUBLE', repetition_type: 'REQUIRED' });
  const schema: SchemaElement[] = [
    { name: 'root', num_children: columns.turnover === undefined ? 6 : 7 },
    intraday
      ? {
          name: 'datetime',
          type: 'INT64',
          repetition_type: 'REQUIRED',
          converted_type: 'TIMESTAMP_MILLIS',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
        }
      : { name: 'date', type: 'INT32', repetition_type: 'REQUIRED', converted_type: 'DATE', logical_type: { type: 'DATE' } },
    ...VALUE_COLUMNS.map(required),
    ...(columns.turnover === undefined ? [] : [{ name: 'turnover', type: 'DOUBLE', repetition_type: 'OPTIONAL' } as SchemaElement]),
  ];
  const own: OwnMetadata = {
    symbol: columns.symbol,
    period: columns.period,
    pricePlaces: columns.pricePlaces,
    volumePlaces: columns.volumePlaces,
  };
  // PLAIN pages (snappy-compressed, the default codec): read back as floats without a dictionary to look
  // up per value, and for prices no larger than dictionary pages.
  const buffer = parquetWriteBuffer({
    columnData: [
      times,
      ...VALUE_COLUMNS.map((name) => ({ name, data: columns[name] })),
      ...(columns.turnover === undefined
        ? []
        : [{ name: 'turnover', data: Array.from(columns.turnover, (value) => (Number.isNaN(value) ? null : value)) }]),
    ].map((column) => ({ ...column, encoding: 'PLAIN' as const })),
    schema,
    kvMetadata: [{ key: PARQUET_METADATA_KEY, value: JSON.stringify(own) }],
    createdBy: 'longport-trader',
  });
  return new Uint8Array(buffer);
}

/** The time column: one named as in CSV, else the dates or timestamps of a pandas frame's unnamed index; −1 when none. */
function timeColumnAt(names: readonly string[], top: readonly SchemaElement[], metadata: FileMetaData): number {
  const named = names.findIndex((name) => TIME_COLUMNS.includes(name));
  if (named >= 0) return named;
  const index = pandasIndexColumn(metadata);
  return top.findIndex((element) => element.name === index && isIntegerTime(element));
}

function topLevelColumns(metadata: FileMetaData): SchemaElement[] {
  const [root, ...rest] = metadata.schema;
  const top: SchemaElement[] = [];
  // Walk the flattened schema tree, keeping the root's direct children (nested groups are skipped whole).
  let index = 0;
  const skip = (): void => {
    const element = rest[index]!;
    index += 1;
    for (let child = 0; child < (element.num_children ?? 0); child += 1) skip();
  };
  for (let child = 0; child < (root?.num_children ?? 0); child += 1) {
    top.push(rest[index]!);
    skip();
  }
  return top;
}

function ownMetadata(metadata: FileMetaData): OwnMetadata {
  const entry = metadata.key_value_metadata?.find((pair) => pair.key === PARQUET_METADATA_KEY);
  if (entry?.value === undefined) return {};
  try {
    return JSON.parse(entry.value) as OwnMetadata;
  } catch {
    return {};
  }
}

const SAFE_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * A page of a numeric column into its floats from `rowStart`: NaN where a value is missing; an integer past
 * 2^53, which its float rounds, is told to `onInexact`.
 */
function copyNumbers(
  data: ArrayLike<unknown>,
  into: Float64Array,
  rowStart: number,
  onInexact: (row: number, value: bigint) => void,
): void {
  const count = Math.min(data.length, into.length - rowStart);
  if (data instanceof Float64Array) {
    into.set(data.subarray(0, count), rowStart);
    return;
  }
  if (data instanceof BigInt64Array && LITTLE_ENDIAN) {
    // Read as 32-bit halves, no BigInt per value, when the high half puts it within ±(2^53 − 1).
    const words = new Int32Array(data.buffer, data.byteOffset, count * 2);
    for (let index = 0; index < count; index += 1) {
      const high = words[2 * index + 1]!;
      if (high > -2_097_152 && high < 2_097_152) into[rowStart + index] = high * 4_294_967_296 + (words[2 * index]! >>> 0);
      else {
        const value = data[index]!;
        if (value > SAFE_INTEGER || value < -SAFE_INTEGER) onInexact(rowStart + index, value);
        into[rowStart + index] = Number(value);
      }
    }
    return;
  }
  for (let index = 0; index < count; index += 1) {
    const value = data[index];
    if (typeof value === 'bigint' && (value > SAFE_INTEGER || value < -SAFE_INTEGER)) onInexact(rowStart + index, value);
    into[rowStart + index] = typeof value === 'number' ? value : value === null || value === undefined ? Number.NaN : Number(value);
  }
}

/** The metadata with the type annotations of integer times and decimals removed, so they are read as stored. */
function withStoredValues(metadata: FileMetaData, elements: readonly SchemaElement[]): FileMetaData {
  const plain = new Set(elements.filter((element) => isIntegerTime(element) || isDecimal(element)));
  if (plain.size === 0) return metadata;
  return {
    ...metadata,
    schema: metadata.schema.map((one) => (plain.has(one) ? { ...one, converted_type: undefined, logical_type: undefined } : one)),
  };
}

function isDecimal(element: SchemaElement): boolean {
  return element.converted_type === 'DECIMAL' || element.logical_type?.type === 'DECIMAL';
}

/** A numeric column's floats, those of a FLOAT column made each the decimal its writer meant. */
function numbers(out: Float64Array, element: SchemaElement): Float64Array {
  if (element.type === 'FLOAT') for (let index = 0; index < out.length; index += 1) out[index] = shortestFloat32(out[index]!);
  return out;
}

/** The shortest decimal that a 32-bit float reads back as: what the writer meant, not its binary noise. */
function shortestFloat32(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value;
  for (let digits = 1; digits <= 9; digits += 1) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return Number(candidate.toFixed(placesOf(candidate)));
  }
  return value;
}
