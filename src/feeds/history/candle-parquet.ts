// Candle history in Parquet, through hyparquet (read) and hyparquet-writer (write). Written files have a
// `date` (DATE, the market-local day) or `datetime` (TIMESTAMP, UTC ms) column, DOUBLE prices and volume,
// an optional DOUBLE turnover, and the symbol, period and decimal places in the file's key-value metadata.
// Read files may come from elsewhere (pandas, DuckDB…): columns are found by name as in the CSV format,
// times may be TIMESTAMP, DATE, integers (epoch s or ms) or text, numbers any numeric type.
import { parquetMetadata, parquetRead } from 'hyparquet';
import type { FileMetaData, SchemaElement } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { DAY_MS } from '../../domain/civil-date.js';
import { isIntraday, PERIODS } from '../../domain/period.js';
import { ZoneRules } from '../../domain/time-zone.js';
import { BadDataError, barRangeProblem, type DataProblem, unsortedRowsError } from './bad-data-error.js';
import { type CandleColumns, ColumnBuilder, placesOf } from './candle-columns.js';
import { type CandleFileOptions, inferPeriod, type LoadedColumns } from './loaded-columns.js';
import { TimeTextReader } from './time-text.js';

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

/** A candle Parquet file as columns, checked like a CSV file (problems name the row, counted from 1). */
export async function readCandleParquet(bytes: Uint8Array, options: CandleFileOptions): Promise<LoadedColumns> {
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
  const timeAt = names.findIndex((name) => TIME_COLUMNS.includes(name));
  const valueAt = VALUE_COLUMNS.map((name) => names.indexOf(name));
  const turnoverAt = names.indexOf('turnover');
  const missing = [timeAt < 0 ? 'time|date|datetime' : '', ...VALUE_COLUMNS.filter((_, index) => valueAt[index]! < 0)].filter(
    (name) => name !== '',
  );
  if (missing.length > 0) {
    const reason = `no column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (found: ${names.join(', ')})`;
    throw new BadDataError([{ source: options.source, line: 0, reason }], 1, 'unreadable candle data:');
  }
  const wanted = [timeAt, ...valueAt, ...(turnoverAt >= 0 ? [turnoverAt] : [])].map((index) => top[index]!.name);
  const rows = Number(metadata.num_rows);
  const raw = new Map<string, unknown[] | ArrayLike<unknown>>();
  const chunks = new Map<string, { rowStart: number; data: ArrayLike<unknown> }[]>();
  await parquetRead({
    file: buffer,
    metadata,
    columns: wanted,
    parsers: {
      timestampFromMilliseconds: (value) => Number(value),
      timestampFromMicroseconds: (value) => Number(value / 1000n),
      timestampFromNanoseconds: (value) => Number(value / 1_000_000n),
      dateFromDays: (days) => days,
    },
    onChunk: (chunk) => {
      const list = chunks.get(chunk.columnName) ?? [];
      list.push({ rowStart: chunk.rowStart, data: chunk.columnData });
      chunks.set(chunk.columnName, list);
    },
  });
  for (const [name, list] of chunks) raw.set(name, list.length === 1 && list[0]!.rowStart === 0 ? list[0]!.data : joined(list, rows));

  const own = ownMetadata(metadata);
  const zone = ZoneRules.of(options.timeZone);
  const timeElement = top[timeAt]!;
  const times = instants(raw.get(timeElement.name)!, timeElement, zone, rows);
  const values = VALUE_COLUMNS.map((_, index) => numbers(raw.get(top[valueAt[index]!]!.name)!, top[valueAt[index]!]!, rows));
  const turnover = turnoverAt >= 0 ? numbers(raw.get(top[turnoverAt]!.name)!, top[turnoverAt]!, rows) : undefined;
  return checkedColumns(times, values as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array], turnover, options, own);
}

/** Checks rows as the CSV reader does and keeps the good ones. */
function checkedColumns(
  times: { readonly instants: Float64Array; readonly dateOnly: boolean },
  values: readonly [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array],
  turnover: Float64Array | undefined,
  options: CandleFileOptions,
  own: OwnMetadata,
): LoadedColumns {
  const [open, high, low, close, volume] = values;
  const maxReported = options.maxReported ?? 10;
  const problems: DataProblem[] = [];
  let problemCount = 0;
  let backwardRows = 0;
  const report = (row: number, reason: string): void => {
    problemCount += 1;
    if (problems.length < maxReported) problems.push({ source: options.source, line: row, reason, unit: 'row' });
  };
  const builder = new ColumnBuilder(times.instants.length);
  let previousTime = Number.NaN;
  let previousRow = 0;
  for (let index = 0; index < times.instants.length; index += 1) {
    const row = index + 1;
    const time = times.instants[index]!;
    if (Number.isNaN(time)) {
      report(row, 'unparseable time');
      continue;
    }
    const bad = VALUE_COLUMNS.findIndex((_, field) => {
      const value = values[field]![index]!;
      return !(value >= 0) || value === Number.POSITIVE_INFINITY;
    });
    if (bad >= 0) {
      report(row, `unparseable ${VALUE_COLUMNS[bad]} "${values[bad]![index]}"`);
      continue;
    }
    const problem = barRangeProblem(open[index]!, high[index]!, low[index]!, close[index]!);
    if (problem !== undefined) {
      report(row, problem);
      continue;
    }
    if (time === previousTime) {
      report(row, `duplicate bar: same time as row ${previousRow}`);
      continue;
    }
    if (time < previousTime) {
      backwardRows += 1;
      report(row, `time goes backwards: earlier than row ${previousRow}`);
      continue;
    }
    previousTime = time;
    previousRow = row;
    const traded = turnover?.[index];
    builder.push(
      time,
      open[index]!,
      high[index]!,
      low[index]!,
      close[index]!,
      volume[index]!,
      traded !== undefined && Number.isFinite(traded) ? traded : Number.NaN,
    );
  }
  const rows = times.instants.length;
  if (backwardRows > 10 && backwardRows * 20 > rows) throw unsortedRowsError(options.source, backwardRows, rows, problems);
  if (problemCount > 0 && (options.onBadRow ?? 'fail') === 'fail') throw new BadDataError(problems, problemCount);
  const ownPeriod = PERIODS.find((period) => period === own.period);
  const period = options.period ?? ownPeriod ?? inferPeriod(builder, times.dateOnly, options.source);
  const places =
    own.pricePlaces !== undefined && own.volumePlaces !== undefined
      ? { pricePlaces: own.pricePlaces, volumePlaces: own.volumePlaces }
      : undefined;
  return {
    columns: builder.finish({ symbol: options.symbol, period, source: options.source }, places),
    problems,
    skippedRows: problemCount,
  };
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
  const buffer = parquetWriteBuffer({
    columnData: [
      times,
      ...VALUE_COLUMNS.map((name) => ({ name, data: columns[name] })),
      ...(columns.turnover === undefined
        ? []
        : [{ name: 'turnover', data: Array.from(columns.turnover, (value) => (Number.isNaN(value) ? null : value)) }]),
    ],
    schema,
    kvMetadata: [{ key: PARQUET_METADATA_KEY, value: JSON.stringify(own) }],
    createdBy: 'longport-trader',
  });
  return new Uint8Array(buffer);
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

function joined(list: readonly { rowStart: number; data: ArrayLike<unknown> }[], rows: number): unknown[] {
  const all = new Array<unknown>(rows);
  for (const { rowStart, data } of list)
    for (let index = 0; index < data.length && rowStart + index < rows; index += 1) all[rowStart + index] = data[index];
  return all;
}

/** Epoch ms per row; NaN where a value is missing or unreadable. */
function instants(
  data: ArrayLike<unknown>,
  element: SchemaElement,
  zone: ZoneRules,
  rows: number,
): { instants: Float64Array; dateOnly: boolean } {
  const out = new Float64Array(rows);
  const logical = element.logical_type?.type;
  if (element.converted_type === 'DATE' || logical === 'DATE') {
    for (let index = 0; index < rows; index += 1) {
      const days = data[index];
      out[index] = typeof days === 'number' ? zone.instantOf(days * DAY_MS) : Number.NaN;
    }
    return { instants: out, dateOnly: true };
  }
  if (typeof data[0] === 'string' || element.converted_type === 'UTF8' || logical === 'STRING') {
    const reader = new TimeTextReader(zone);
    let dateOnly = true;
    for (let index = 0; index < rows; index += 1) {
      const text = data[index];
      const bytes = Buffer.from(typeof text === 'string' ? text : '', 'utf8');
      out[index] = reader.parse(bytes, 0, bytes.length) ? reader.instant : Number.NaN;
      if (!reader.dateOnly) dateOnly = false;
    }
    return { instants: out, dateOnly };
  }
  // TIMESTAMP columns arrive as ms (our parsers); plain integers are epoch seconds below 10^11, else ms.
  const timestamp = logical === 'TIMESTAMP' || element.converted_type?.startsWith('TIMESTAMP') === true || element.type === 'INT96';
  for (let index = 0; index < rows; index += 1) {
    const value = Number(data[index] ?? Number.NaN);
    out[index] = timestamp || Math.abs(value) >= 1e11 ? value : value * 1000;
  }
  return { instants: out, dateOnly: false };
}

/** Floats of a numeric column, each the float nearest its decimal; NaN where missing. */
function numbers(data: ArrayLike<unknown>, element: SchemaElement, rows: number): Float64Array {
  const out = data instanceof Float64Array && data.length === rows ? data : new Float64Array(rows);
  if (out !== data)
    for (let index = 0; index < rows; index += 1)
      out[index] = data[index] === null || data[index] === undefined ? Number.NaN : Number(data[index]);
  if (element.converted_type === 'DECIMAL' || element.logical_type?.type === 'DECIMAL') {
    // hyparquet multiplies by 10^-scale, which can miss the nearest float by one ulp: divide instead.
    const scale = 10 ** (element.scale ?? 0);
    for (let index = 0; index < rows; index += 1) out[index] = Math.round(out[index]! * scale) / scale;
  } else if (element.type === 'FLOAT') {
    for (let index = 0; index < rows; index += 1) out[index] = shortestFloat32(out[index]!);
  }
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
