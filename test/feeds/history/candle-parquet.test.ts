import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parquetMetadata } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { symbolsOfDataPath } from '../../../src/backtest/data.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { readCandleCsv } from '../../../src/feeds/history/candle-csv.js';
import { loadCandles } from '../../../src/feeds/history/candle-files.js';
import {
  type CandleParquetReader,
  PARQUET_METADATA_KEY,
  readCandleParquet as readEitherWay,
  writeCandleParquet,
} from '../../../src/feeds/history/candle-parquet.js';
import type { CandleFileOptions, LoadedColumns } from '../../../src/feeds/history/loaded-columns.js';

const AAPL = parseSymbol('AAPL.US');
const TENCENT = parseSymbol('700.HK');
const options = (symbol = AAPL) => ({
  symbol,
  source: `${symbol}.parquet`,
  timeZone: symbol === AAPL ? 'America/New_York' : 'Asia/Hong_Kong',
});
const csv = (text: string, symbol = AAPL, period?: '1m') =>
  readCandleCsv(Buffer.from(text), { ...options(symbol), source: `${symbol}.csv`, ...(period === undefined ? {} : { period }) }).columns;

/** A read by either reader: its columns and problems, or its error. */
async function outcome(bytes: Uint8Array, options: CandleFileOptions, reader: CandleParquetReader): Promise<unknown> {
  try {
    return await readEitherWay(bytes, options, reader);
  } catch (error) {
    return { error: (error as Error).name, message: (error as Error).message };
  }
}

/**
 * Every file read here is read both ways, page by page (the reader used) and through parquetRead (the
 * reference), and the two must agree: columns, problems, or the error.
 */
async function readCandleParquet(bytes: Uint8Array, options: CandleFileOptions): Promise<LoadedColumns> {
  const reference = await outcome(bytes, options, 'hyparquet');
  expect(await outcome(bytes, options, 'pages')).toEqual(reference);
  return readEitherWay(bytes, options, 'pages');
}

const TIMESTAMP_UNITS = [
  ['MILLIS', 1n],
  ['MICROS', 1000n],
  ['NANOS', 1_000_000n],
] as const;

/**
 * A file of an INT64 TIMESTAMP column (`names[0]`, the epoch ms `times` in `unit`, adjusted to UTC or not)
 * and DOUBLE columns (the other names) holding 1, 2, 3 … row by row.
 */
function timestampFile(
  names: readonly string[],
  times: readonly number[],
  { unit, perMs, utc }: { unit: (typeof TIMESTAMP_UNITS)[number][0]; perMs: bigint; utc: boolean },
): Uint8Array {
  const [time, ...values] = names as [string, ...string[]];
  const written = parquetWriteBuffer({
    columnData: [
      { name: time, data: times.map((ms) => BigInt(ms) * perMs) },
      ...values.map((name) => ({ name, data: times.map((_, row) => row + 1) })),
    ],
    schema: [
      { name: 'root', num_children: names.length },
      { name: time, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: utc, unit }, repetition_type: 'REQUIRED' },
      ...values.map((name) => ({ name, type: 'DOUBLE' as const, repetition_type: 'REQUIRED' as const })),
    ],
  });
  return new Uint8Array(written);
}

/** A Parquet file of daily rows: DATE days and DOUBLE prices and volumes (null for an empty cell). */
function dailyParquet(
  dates: readonly string[],
  values: Readonly<Record<'open' | 'high' | 'low' | 'close' | 'volume', readonly (number | null)[]>>,
) {
  const day = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  const names = ['open', 'high', 'low', 'close', 'volume'] as const;
  return parquetWriteBuffer({
    columnData: [{ name: 'date', data: dates.map(day) }, ...names.map((name) => ({ name, data: [...values[name]] }))],
    schema: [
      { name: 'root', num_children: 6 },
      { name: 'date', type: 'INT32', converted_type: 'DATE', repetition_type: 'REQUIRED' },
      ...names.map((name) => ({ name, type: 'DOUBLE' as const, repetition_type: 'OPTIONAL' as const })),
    ],
  });
}

describe('candle Parquet files', () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'candle-parquet-'));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('write daily bars as market-local dates and read back the same columns, decimal places and period', async () => {
    const columns = csv(
      'date,open,high,low,close,volume,turnover\n2024-03-08,172.94,173.7,168.94,170.73,76114600,\n2024-03-11,168.99,174.38,168.6,172.75,60139500,1.5e9\n',
    );
    const bytes = writeCandleParquet(columns, 'America/New_York');
    const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    expect(metadata.schema.map((element) => [element.name, element.type ?? null, element.converted_type ?? null])).toEqual([
      ['root', null, null],
      ['date', 'INT32', 'DATE'],
      ['open', 'DOUBLE', null],
      ['high', 'DOUBLE', null],
      ['low', 'DOUBLE', null],
      ['close', 'DOUBLE', null],
      ['volume', 'DOUBLE', null],
      ['turnover', 'DOUBLE', null],
    ]);
    expect(JSON.parse(metadata.key_value_metadata!.find((pair) => pair.key === PARQUET_METADATA_KEY)!.value!)).toEqual({
      symbol: 'AAPL.US',
      period: 'day',
      pricePlaces: 2,
      volumePlaces: 0,
    });

    const read = await readCandleParquet(bytes, options());

    expect(read.columns).toEqual({ ...columns, source: 'AAPL.US.parquet' });
  });

  it('write intraday bars as UTC instants and read them back', async () => {
    const columns = csv(
      'datetime,open,high,low,close,volume\n2024-03-08T15:59,1.01,1.02,1,1.015,7\n2024-03-11T09:30,1.1,1.2,1.05,1.15,9\n',
      AAPL,
      '1m',
    );
    const read = await readCandleParquet(writeCandleParquet(columns, 'America/New_York'), options());
    expect(read.columns).toEqual({ ...columns, source: 'AAPL.US.parquet' });
    expect(read.columns.period).toBe('1m');
  });

  it('read files of several row groups and pages whole, daily and intraday, with a turnover column that has gaps', async () => {
    // The writer starts a new row group after 1,000 rows: these files come back in several pieces per column.
    const rows = 2_345;
    const minutes = ['datetime,open,high,low,close,volume,turnover'];
    const days = ['date,open,high,low,close,volume'];
    for (let index = 0; index < rows; index += 1) {
      const price = (100 + (index % 97) / 4).toFixed(2);
      const high = (Number(price) + 0.5).toFixed(2);
      const minute = new Date(Date.UTC(2024, 0, 2, 14, 30) + index * 60_000).toISOString().slice(0, 16);
      minutes.push(`${minute},${price},${high},${price},${price},${index * 3},${index % 5 === 0 ? '' : index * 300}`);
      days.push(
        `${new Date(Date.UTC(2000, 0, 3) + index * 86_400_000).toISOString().slice(0, 10)},${price},${high},${price},${high},${index}`,
      );
    }
    for (const [text, period] of [
      [minutes.join('\n'), '1m'],
      [days.join('\n'), undefined],
    ] as const) {
      const columns = csv(text, AAPL, period);
      expect(columns.length).toBe(rows);
      const bytes = writeCandleParquet(columns, 'America/New_York');
      const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
      expect(metadata.row_groups.length).toBeGreaterThan(1);
      // Written as PLAIN pages, not dictionaries (the faster read; see the end-to-end bench's Parquet case).
      const encodings = new Set(metadata.row_groups.flatMap((group) => group.columns.flatMap((column) => column.meta_data!.encodings)));
      expect(encodings.has('PLAIN') && !encodings.has('RLE_DICTIONARY') && !encodings.has('PLAIN_DICTIONARY')).toBe(true);
      const read = await readCandleParquet(bytes, options());
      expect(read.columns).toEqual({ ...columns, source: 'AAPL.US.parquet' });
    }
  });

  it('read TIMESTAMP times before 1970 and far ahead exactly, in ms, µs and ns', async () => {
    const instants = ['1901-12-13T20:45:52.001Z', '1965-03-01T14:30:00Z', '2024-01-02T01:30:00Z', '2250-06-30T23:59:59.999Z'].map(
      Date.parse,
    );
    for (const [unit, perMs] of TIMESTAMP_UNITS) {
      const written = timestampFile(['datetime', 'open', 'high', 'low', 'close', 'volume'], instants, { unit, perMs, utc: true });
      const read = await readCandleParquet(written, { ...options(), period: '1m' });
      expect(Array.from(read.columns.time)).toEqual(instants);
    }
  });

  it('read a TIMESTAMP not adjusted to UTC (a naive pandas, Polars or DuckDB time) as the market wall time, as CSV reads it', async () => {
    const walls = ['2024-03-08T09:30', '2024-03-08T15:59', '2024-03-11T09:30'];
    for (const [unit, perMs] of TIMESTAMP_UNITS) {
      const stored = walls.map((wall) => Date.parse(`${wall}Z`));
      const written = timestampFile(['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume'], stored, { unit, perMs, utc: false });
      const read = await readCandleParquet(written, { ...options(), period: '1m' });
      const fromCsv = csv(
        `datetime,open,high,low,close,volume\n${walls.map((wall, index) => `${wall},${index + 1},${index + 1},${index + 1},${index + 1},${index + 1}`).join('\n')}\n`,
        AAPL,
        '1m',
      );
      expect(Array.from(read.columns.time)).toEqual(Array.from(fromCsv.time));
      expect(new Date(read.columns.time[0]!).toISOString()).toBe('2024-03-08T14:30:00.000Z');
    }
  });

  it('say so when local times clash because of a clock change, as a CSV file does: a skipped wall time, a repeated one', async () => {
    const york = { ...options(), period: '1m' as const };
    const names = ['datetime', 'open', 'high', 'low', 'close', 'volume'];
    const local = (walls: readonly string[]) =>
      timestampFile(
        names,
        walls.map((wall) => Date.parse(`${wall}Z`)),
        { unit: 'MICROS', perMs: 1000n, utc: false },
      );
    await expect(readCandleParquet(local(['2024-03-10T01:30', '2024-03-10T02:30', '2024-03-10T03:00']), york)).rejects.toThrow(
      'AAPL.US.parquet row 3: time goes backwards: earlier than row 2 (2024-03-10 02:30 does not exist in America/New_York: the clocks went forward over it, so it reads as 03:30)',
    );
    await expect(readCandleParquet(local(['2024-11-03T01:00', '2024-11-03T01:30', '2024-11-03T01:00']), york)).rejects.toThrow(
      "AAPL.US.parquet row 3: time goes backwards: earlier than row 2 (2024-11-03 01:00 happens twice in America/New_York: the clocks went back, and a time without an offset reads as the first; store the times as instants (a TIMESTAMP adjusted to UTC: DuckDB's TIMESTAMPTZ, a time-zone-aware pandas or Polars column))",
    );
    // Text times can carry an offset, as CSV cells can.
    const text = parquetWriteBuffer({
      columnData: [
        { name: 'datetime', data: ['2024-11-03 01:00', '2024-11-03 01:30', '2024-11-03 01:00'], type: 'STRING' },
        ...names.slice(1).map((name) => ({ name, data: [1, 1, 1], type: 'DOUBLE' as const })),
      ],
    });
    await expect(readCandleParquet(new Uint8Array(text), york)).rejects.toThrow(
      'write the second with its offset, e.g. 2024-11-03T01:00-05:00)',
    );
    // Instants clash for no clock change: no note.
    const utc = timestampFile(names, [Date.parse('2024-03-11T14:00Z'), Date.parse('2024-03-11T13:00Z')], {
      unit: 'MILLIS',
      perMs: 1n,
      utc: true,
    });
    await expect(readCandleParquet(utc, york)).rejects.toThrow(/earlier than row 1$/m);
  });

  it("read INT96 times (Spark's default) as the UTC instants Spark stores in them", async () => {
    // Written by pyarrow with use_deprecated_int96_timestamps (test/fixtures/parquet/README.md): 09:30 and 09:31 in New York.
    const file = await readFile(new URL('../../fixtures/parquet/int96-minutes.parquet', import.meta.url));
    const read = await readCandleParquet(file, { ...options(), period: '1m' });
    expect(Array.from(read.columns.time, (time) => new Date(time).toISOString())).toEqual([
      '2024-03-08T14:30:00.000Z',
      '2024-03-08T14:31:00.000Z',
    ]);
  });

  it('read ZSTD pages (the Polars default) and GZIP pages, and refuse a codec it cannot read, naming the file', async () => {
    // Written by DuckDB (test/fixtures/parquet/README.md): hyparquet-writer compresses no ZSTD here.
    const zstd = await readFile(new URL('../../fixtures/parquet/zstd-minutes.parquet', import.meta.url));
    const fromZstd = await readCandleParquet(zstd, options());
    expect(Array.from(fromZstd.columns.time, (time) => new Date(time).toISOString())).toEqual([
      '2024-03-08T14:30:00.000Z',
      '2024-03-08T14:31:00.000Z',
      '2024-03-08T14:32:00.000Z',
    ]);
    expect([Array.from(fromZstd.columns.close), Array.from(fromZstd.columns.volume), fromZstd.columns.period]).toEqual([
      [170.73, 171, 170.25],
      [76_114_600, 1_200_300, 980_000],
      '1m',
    ]);

    const names = ['open', 'high', 'low', 'close', 'volume'] as const;
    const columnData = [
      { name: 'date', data: ['2024-01-02', '2024-01-03'], type: 'STRING' as const },
      ...names.map((name) => ({ name, data: [10, 11], type: 'DOUBLE' as const })),
    ];
    const gzip = parquetWriteBuffer({ columnData, codec: 'GZIP', compressors: { GZIP: (input) => gzipSync(input) } });
    expect(Array.from((await readCandleParquet(new Uint8Array(gzip), options())).columns.close)).toEqual([10, 11]);

    // LZO: no decompressor for it (the pages here are not even compressed).
    const lzo = parquetWriteBuffer({ columnData, codec: 'LZO', compressors: { LZO: (input) => input } });
    await expect(readCandleParquet(new Uint8Array(lzo), options())).rejects.toThrow(
      /unreadable candle data:\nAAPL\.US\.parquet: cannot read its columns date, open, high, low, close, volume \(.*LZO/,
    );
  });

  it('read plain integer times as epoch seconds, ms, µs or ns by their size, and refuse one beyond any date', async () => {
    const instants = ['1999-12-31T14:30:00Z', '2024-03-08T14:30:00Z', '2024-03-08T14:31:00Z'].map(Date.parse);
    const file = (times: readonly (bigint | number)[]) =>
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'timestamp', data: [...times], type: typeof times[0] === 'bigint' ? 'INT64' : 'DOUBLE' },
            ...['open', 'high', 'low', 'close', 'volume'].map((name) => ({ name, data: times.map(() => 1), type: 'DOUBLE' as const })),
          ],
        }),
      );
    for (const perMs of [1n, 1000n, 1_000_000n]) {
      const read = await readCandleParquet(file(instants.map((ms) => BigInt(ms) * perMs)), { ...options(), period: '1m' });
      expect(Array.from(read.columns.time)).toEqual(instants);
    }
    const seconds = await readCandleParquet(file(instants.map((ms) => BigInt(ms / 1000))), { ...options(), period: '1m' });
    expect(Array.from(seconds.columns.time)).toEqual(instants);
    // ms from before 1973-03-03 are as short as seconds: in a column of later ms they are ms too.
    const early = [Date.parse('1972-12-01T00:00:00Z'), Date.parse('1973-06-01T00:00:00Z')];
    const spanning = await readCandleParquet(file(early.map((ms) => BigInt(ms))), { ...options(), period: '1m' });
    expect(Array.from(spanning.columns.time)).toEqual(early);
    // 10^30 (a DOUBLE column): even as ns, past the last date there is.
    await expect(readCandleParquet(file([...instants.slice(0, 2), 1e30]), options())).rejects.toThrow(
      'AAPL.US.parquet row 3: unparseable time "1e+30"',
    );
  });

  it('skip bad rows between good ones, keeping the good ones in order, and name them', async () => {
    const written = dailyParquet(['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-05', '2024-01-08'], {
      open: [10, 11, 12, 13, 13, 14],
      high: [10.5, 11.5, 11, 13.5, 13.5, 14.5],
      low: [9.5, 10.5, 11.5, 12.5, 12.5, 13.5],
      close: [10.25, 11.25, 11.75, 13.25, 13.25, 14.25],
      volume: [100, 200, 300, 400, 400, 500],
    });
    const read = await readCandleParquet(new Uint8Array(written), { ...options(), onBadRow: 'skip' });
    expect(read.problems.map(({ line, reason }) => [line, reason])).toEqual([
      [3, 'high 11 is below low 11.5'],
      [5, 'duplicate bar: same time as row 4'],
    ]);
    expect(Array.from(read.columns.close)).toEqual([10.25, 11.25, 13.25, 14.25]);
    expect(Array.from(read.columns.time, (time) => new Date(time).toISOString().slice(0, 10))).toEqual([
      '2024-01-02',
      '2024-01-03',
      '2024-01-05',
      '2024-01-08',
    ]);
    await expect(readCandleParquet(new Uint8Array(written), options())).rejects.toThrow(/row 3|line 3|:3/);
  });

  it('name a missing time and show an unreadable one as written, as a CSV file does', async () => {
    const written = parquetWriteBuffer({
      columnData: [
        { name: 'date', data: ['2024-01-02', null, '03/01/2024', '2024-01-05'], type: 'STRING' },
        ...['open', 'high', 'low', 'close', 'volume'].map((name) => ({ name, data: [10, 11, 12, 13], type: 'DOUBLE' as const })),
      ],
    });
    const read = await readCandleParquet(new Uint8Array(written), { ...options(), onBadRow: 'skip' });
    expect(read.problems.map(({ line, reason }) => [line, reason])).toEqual([
      [2, 'no time (an empty cell)'],
      [3, 'unparseable time "03/01/2024"'],
    ]);
  });

  it('name a missing price, a price of 0 and a negative volume in their own words, not as unparseable text', async () => {
    const written = dailyParquet(['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'], {
      open: [10, 0, 12, 13],
      high: [10.5, 0, 12.5, 13.5],
      low: [9.5, 0, 11.5, 12.5],
      close: [10.25, 0, null, 13.25],
      volume: [100, 200, 300, -400],
    });
    const read = await readCandleParquet(new Uint8Array(written), { ...options(), onBadRow: 'skip' });
    expect(read.problems.map(({ line, reason }) => [line, reason])).toEqual([
      [2, 'open "0": a price must be greater than 0'],
      [3, 'no close (an empty cell)'],
      [4, 'negative volume "-400"'],
    ]);
    expect(Array.from(read.columns.close)).toEqual([10.25]);
  });

  it('read files written elsewhere: DECIMAL and FLOAT prices, INT64 volume, TIMESTAMP micros, text dates', async () => {
    const written = parquetWriteBuffer({
      columnData: [
        { name: 'Datetime', data: [Date.parse('2024-01-02T01:30:00Z') * 1000, Date.parse('2024-01-02T01:31:00Z') * 1000].map(BigInt) },
        { name: 'Open', data: [38_820n, 38_840n] },
        { name: 'High', data: [1.1, 1.2] },
        { name: 'Low', data: [1.05, 1.1] },
        { name: 'Close', data: ['388.3', '388.4'] },
        { name: 'Volume', data: [1200n, 300n] },
      ],
      schema: [
        { name: 'root', num_children: 6 },
        {
          name: 'Datetime',
          type: 'INT64',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
          repetition_type: 'REQUIRED',
        },
        { name: 'Open', type: 'INT64', converted_type: 'DECIMAL', scale: 2, precision: 18, repetition_type: 'REQUIRED' },
        { name: 'High', type: 'FLOAT', repetition_type: 'REQUIRED' },
        { name: 'Low', type: 'FLOAT', repetition_type: 'REQUIRED' },
        { name: 'Close', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
        { name: 'Volume', type: 'INT64', repetition_type: 'REQUIRED' },
      ],
    });
    // Prices that do not fit the bar are reported by row, like a CSV file's lines.
    const read = await readCandleParquet(new Uint8Array(written), { ...options(TENCENT), onBadRow: 'skip' });
    expect(read.problems).toEqual([
      { source: '700.HK.parquet', line: 1, reason: "open 388.2 is outside the bar's range [1.05, 1.1]", unit: 'row' },
      { source: '700.HK.parquet', line: 2, reason: "open 388.4 is outside the bar's range [1.1, 1.2]", unit: 'row' },
    ]);
    const dates = parquetWriteBuffer({
      columnData: [
        { name: 'date', data: ['2024-01-02', '2024-01-03'], type: 'STRING' },
        { name: 'open', data: [388.2, 388.4], type: 'DOUBLE' },
        { name: 'high', data: [390.5, 391], type: 'DOUBLE' },
        { name: 'low', data: [387.25, 388], type: 'DOUBLE' },
        { name: 'close', data: [389, 390], type: 'DOUBLE' },
        { name: 'volume', data: [1000, 2000], type: 'INT32' },
      ],
    });
    const daily = await readCandleParquet(new Uint8Array(dates), options(TENCENT));
    expect(Array.from(daily.columns.time, (time) => new Date(time).toISOString())).toEqual([
      '2024-01-01T16:00:00.000Z',
      '2024-01-02T16:00:00.000Z',
    ]);
    expect({ period: daily.columns.period, places: daily.columns.pricePlaces, volume: Array.from(daily.columns.volume) }).toEqual({
      period: 'day',
      places: 2,
      volume: [1000, 2000],
    });
  });

  it('read DECIMAL prices as the decimals they hold at any scale and storage, and report one with more digits than a float holds', async () => {
    // Written by DuckDB (test/fixtures/parquet/README.md): DECIMAL(38,18) (Spark's default) and (38,0) stored as
    // FIXED_LEN_BYTE_ARRAY, (18,10) as INT64, (9,2) as INT32. Its third row's close has 21 significant digits.
    const file = await readFile(new URL('../../fixtures/parquet/decimal-prices.parquet', import.meta.url));
    const read = await readCandleParquet(file, { ...options(), onBadRow: 'skip' });
    const fromCsv = csv(
      'date,open,high,low,close,volume\n2024-03-08,711500.5,712345.67,711000.25,712100.75,1200\n2024-03-11,712100.75,712100.75,700000.01,700000.125,1350\n',
    );
    expect(read.columns).toEqual({ ...fromCsv, source: 'AAPL.US.parquet' });
    expect(read.problems.map(({ line, reason }) => [line, reason])).toEqual([
      [3, 'close "28.500000000000000001" has more digits than a float holds: it would be read as 28.5'],
    ]);

    // BYTE_ARRAY decimals (hyparquet-writer stores a DECIMAL(38,18) of numbers so), beside dates as text without a UTF8 annotation.
    const text = (values: readonly string[]) => values.map((value) => new TextEncoder().encode(value));
    const names = ['open', 'high', 'low', 'close', 'volume'] as const;
    const bytes = parquetWriteBuffer({
      columnData: [
        { name: 'date', data: text(['2024-03-08', '2024-03-11']) },
        ...names.map((name) => ({ name, data: name === 'high' ? [28.94, 28.94] : [28.5, 28.5] })),
      ],
      schema: [
        { name: 'root', num_children: 6 },
        { name: 'date', type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' },
        ...names.map((name) => ({
          name,
          type: 'BYTE_ARRAY' as const,
          converted_type: 'DECIMAL' as const,
          scale: 18,
          precision: 38,
          repetition_type: 'REQUIRED' as const,
        })),
      ],
    });
    const byteArrays = await readCandleParquet(new Uint8Array(bytes), options());
    expect(byteArrays.columns).toEqual({
      ...csv('date,open,high,low,close,volume\n2024-03-08,28.5,28.94,28.5,28.5,28.5\n2024-03-11,28.5,28.94,28.5,28.5,28.5\n'),
      source: 'AAPL.US.parquet',
    });
  });

  it("read the times of a pandas frame's unnamed index (its __index_level_0__ column) as its time column", async () => {
    // Written by pandas (test/fixtures/parquet/README.md): df.to_parquet() of a frame indexed by pd.to_datetime dates.
    const file = await readFile(new URL('../../fixtures/parquet/pandas-unnamed-index.parquet', import.meta.url));
    const read = await readCandleParquet(file, options());
    const fromCsv = csv(
      'date,open,high,low,close,volume\n2024-03-08,172.94,173.7,168.94,170.73,76114600\n2024-03-11,170.73,171.2,170.5,171,1200300\n',
    );
    expect(read.columns).toEqual({ ...fromCsv, source: 'AAPL.US.parquet' });
  });

  it('report an INT64 value past 2^53 (its float would round it) as a bad row saying what it would be read as', async () => {
    const written = parquetWriteBuffer({
      columnData: [
        { name: 'date', data: ['2024-01-02', '2024-01-03'], type: 'STRING' },
        { name: 'open', data: [10, 10], type: 'DOUBLE' },
        { name: 'high', data: [11, 11], type: 'DOUBLE' },
        { name: 'low', data: [9, 9], type: 'DOUBLE' },
        { name: 'close', data: [10.5, 10.5], type: 'DOUBLE' },
        { name: 'volume', data: [9_007_199_254_740_991n, 9_007_199_254_740_993n], type: 'INT64' },
      ],
    });
    const read = await readCandleParquet(new Uint8Array(written), { ...options(), onBadRow: 'skip' });
    expect(read.problems).toEqual([
      {
        source: 'AAPL.US.parquet',
        line: 2,
        reason: 'volume "9007199254740993" has more digits than a float holds: it would be read as 9007199254740992',
        unit: 'row',
      },
    ]);
    expect(Array.from(read.columns.volume)).toEqual([9_007_199_254_740_991]);
  });

  it('refuse a long table of several symbols in a symbol or ticker column, whatever the bad-row policy, and read one of one symbol', async () => {
    const long = (column: string, symbols: readonly string[]) =>
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: column, data: [...symbols], type: 'STRING' },
            { name: 'Date', data: ['2024-01-02', '2024-01-02', '2024-01-03', '2024-01-03'], type: 'STRING' },
            ...['Open', 'High', 'Low', 'Close', 'Volume'].map((name) => ({ name, data: [185, 470, 184, 468], type: 'DOUBLE' as const })),
          ],
        }),
      );
    for (const column of ['symbol', 'Ticker']) {
      await expect(readCandleParquet(long(column, ['AAPL', 'SPY', 'AAPL', 'SPY']), { ...options(), onBadRow: 'skip' })).rejects.toThrow(
        `AAPL.US.parquet: column ${column} holds 2 symbols (AAPL from row 1, SPY from row 2); a candle file holds one symbol's bars`,
      );
    }
    const one = parquetWriteBuffer({
      columnData: [
        { name: 'symbol', data: ['AAPL', 'AAPL'], type: 'STRING' },
        { name: 'date', data: ['2024-01-02', '2024-01-03'], type: 'STRING' },
        ...['open', 'high', 'low', 'close', 'volume'].map((name) => ({ name, data: [185, 184], type: 'DOUBLE' as const })),
      ],
    });
    expect(Array.from((await readCandleParquet(new Uint8Array(one), options())).columns.close)).toEqual([185, 184]);
  });

  it('read the files of other tools alike page by page and through parquetRead: nulls, dictionaries, row groups, codecs', async () => {
    // pyarrow-nulls.parquet (test/fixtures/parquet/README.md): nullable dictionary pages with nulls in two row groups.
    const fixtures = ['pyarrow-nulls', 'zstd-minutes', 'decimal-prices', 'int96-minutes', 'pandas-unnamed-index'];
    for (const name of fixtures) {
      const bytes = new Uint8Array(await readFile(join('test/fixtures/parquet', `${name}.parquet`)));
      for (const onBadRow of ['skip', 'fail'] as const) {
        const read = { ...options(), period: '1m' as const, onBadRow };
        expect(await outcome(bytes, read, 'pages')).toEqual(await outcome(bytes, read, 'hyparquet'));
      }
    }
    const read = await readCandleParquet(new Uint8Array(await readFile('test/fixtures/parquet/pyarrow-nulls.parquet')), {
      ...options(),
      onBadRow: 'skip',
    });
    expect(read.problems.map((problem) => `${problem.line}: ${problem.reason}`)).toEqual([
      '3: no open (an empty cell)',
      '4: no time (an empty cell)',
      '5: no volume (an empty cell)',
      expect.stringMatching(/^7: .*9007199254740993/),
    ]);
    expect(Array.from(read.columns.close)).toEqual([171, 171.5, 171]);
  });

  it('loads a folder of CSV and Parquet files by symbol, and refuses two files of one symbol', async () => {
    const hk = csv('date,open,high,low,close,volume\n2024-01-02,388.2,390.5,387.25,389,1000\n', TENCENT);
    await writeFile(join(folder, '700.HK.parquet'), writeCandleParquet(hk, 'Asia/Hong_Kong'));
    await writeFile(join(folder, '5.HK.csv'), 'date,open,high,low,close,volume\n2024-01-03,60,61,59,60.5,100\n');

    const loaded = await loadCandles(folder);

    expect(loaded.series.map((series) => [series.symbol, series.columns.length, series.candles[0]!.close])).toEqual([
      ['5.HK', 1, 60.5],
      ['700.HK', 1, 389],
    ]);
    await writeFile(join(folder, '700.HK.csv'), 'date,open,high,low,close,volume\n');
    await expect(loadCandles(folder)).rejects.toThrow(/has two files for 700\.HK \(700\.HK\.csv, 700\.HK\.parquet\); keep one/);
  });

  it('refuses a folder named like a candle file (a Spark dataset of part files) inside the data folder, naming it', async () => {
    const hk = csv('date,open,high,low,close,volume\n2024-01-02,388.2,390.5,387.25,389,1000\n', TENCENT);
    await mkdir(join(folder, '700.HK.parquet'));
    await writeFile(join(folder, '700.HK.parquet', 'part-00000-1f2e.snappy.parquet'), writeCandleParquet(hk, 'Asia/Hong_Kong'));
    await writeFile(join(folder, '5.HK.csv'), 'date,open,high,low,close,volume\n2024-01-03,60,61,59,60.5,100\n');

    await expect(loadCandles(folder)).rejects.toThrow(`${join(folder, '700.HK.parquet')} is a folder, not a candle file`);
  });

  it('refuses a folder of a partitioned dataset (KEY=VALUE folders, as DuckDB and Spark write) saying what to write instead', async () => {
    const hk = csv('date,open,high,low,close,volume\n2024-01-02,388.2,390.5,387.25,389,1000\n', TENCENT);
    for (const symbol of ['700.HK', '5.HK']) {
      await mkdir(join(folder, `symbol=${symbol}`));
      await writeFile(join(folder, `symbol=${symbol}`, 'data_0.parquet'), writeCandleParquet(hk, 'Asia/Hong_Kong'));
    }
    const hint =
      "; its folders symbol=5.HK, symbol=700.HK are a partitioned dataset (as DuckDB's PARTITION_BY and Spark's partitionBy write), " +
      'not candle files: write one file per symbol, named after it (5.HK.parquet)';

    await expect(loadCandles(folder, { symbols: [TENCENT] })).rejects.toThrow(`no .csv or .parquet files in ${folder}${hint}`);
    await expect(symbolsOfDataPath(folder)).rejects.toThrow(`(e.g. 700.HK.csv) in ${folder}${hint}`);
  });

  it('refuses a file that is not Parquet, or lacks a column, naming it', async () => {
    await expect(readCandleParquet(Buffer.from('date,open\n'), options())).rejects.toThrow(/AAPL\.US\.parquet: not a Parquet file/);
    const noVolume = parquetWriteBuffer({ columnData: [{ name: 'date', data: ['2024-01-02'], type: 'STRING' }] });
    await expect(readCandleParquet(new Uint8Array(noVolume), options())).rejects.toThrow(
      'AAPL.US.parquet: no columns open, high, low, close, volume (found: date)',
    );
  });
});
