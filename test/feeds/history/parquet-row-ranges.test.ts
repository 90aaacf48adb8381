import { parquetMetadata } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { readCandleParquet } from '../../../src/feeds/history/candle-parquet.js';
import { ROWS_PER_READ, rowRanges } from '../../../src/feeds/history/parquet-row-ranges.js';

/** Metadata of a file whose row groups hold these rows. */
const groupsOf = (rows: readonly number[]) =>
  ({ row_groups: rows.map((count) => ({ num_rows: BigInt(count) })) }) as unknown as Parameters<typeof rowRanges>[0];

describe('Parquet row ranges', () => {
  it('cover a file in reads of whole row groups of at least the rows per read, a larger group alone', () => {
    expect(rowRanges(groupsOf([100, 100, 100, 100, 100]), 250)).toEqual([
      [0, 300],
      [300, 500],
    ]);
    expect(rowRanges(groupsOf([1000, 10, 10]), 250)).toEqual([
      [0, 1000],
      [1000, 1020],
    ]);
    expect(rowRanges(groupsOf([100, 150]), 250)).toEqual([[0, 250]]);
    expect(rowRanges(groupsOf([]), 250)).toEqual([[0, 0]]);
  });

  it('read a file of several reads whole, its rows in order, nullable columns as DuckDB, pandas and Polars write them', async () => {
    const rows = ROWS_PER_READ + 50_000;
    const start = Date.UTC(2024, 0, 2, 14, 30);
    const prices = (at: (row: number) => number) => Float64Array.from({ length: rows }, (_, row) => at(row));
    const bytes = parquetWriteBuffer({
      columnData: [
        { name: 'datetime', data: BigInt64Array.from({ length: rows }, (_, row) => BigInt(start + row * 60_000)) },
        { name: 'open', data: prices((row) => 100 + (row % 7)) },
        { name: 'high', data: prices(() => 110) },
        { name: 'low', data: prices(() => 90) },
        { name: 'close', data: prices((row) => 100 + (row % 5) / 4) },
        { name: 'volume', data: prices((row) => row) },
      ],
      schema: [
        { name: 'root', num_children: 6 },
        {
          name: 'datetime',
          type: 'INT64',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
          repetition_type: 'OPTIONAL',
        },
        ...['open', 'high', 'low', 'close', 'volume'].map((name) => ({
          name,
          type: 'DOUBLE' as const,
          repetition_type: 'OPTIONAL' as const,
        })),
      ],
      rowGroupSize: 50_000,
    });
    expect(rowRanges(parquetMetadata(bytes)).length).toBeGreaterThan(1);

    const read = await readCandleParquet(new Uint8Array(bytes), {
      symbol: parseSymbol('AAPL.US'),
      source: 'AAPL.US.parquet',
      timeZone: 'America/New_York',
    });

    const { time, open, close, volume } = read.columns;
    expect(read.columns.length).toBe(rows);
    for (const row of [0, 49_999, 50_000, ROWS_PER_READ - 1, ROWS_PER_READ, rows - 1])
      expect([time[row], open[row], close[row], volume[row]]).toEqual([start + row * 60_000, 100 + (row % 7), 100 + (row % 5) / 4, row]);
  });
});
