// The row ranges parquetRead reads a Parquet file's columns in (those not read page by page, parquet-pages.ts,
// and all of them in the reference read): whole row groups, about ROWS_PER_READ rows each. hyparquet keeps
// every decoded page of a read until the read ends (a nullable column's as a JS array, an INT64 one's as a
// BigInt per value), so a big file read at once held all of them, several times the columns it became.
import type { FileMetaData } from 'hyparquet';

/** Rows a read covers before the next starts (more when one row group is larger). */
export const ROWS_PER_READ = 250_000;

/** [rowStart, rowEnd) of each read, on row-group boundaries, covering the file; one empty range for an empty file. */
export function rowRanges(metadata: FileMetaData, rowsPerRead = ROWS_PER_READ): [number, number][] {
  const ranges: [number, number][] = [];
  let start = 0;
  let end = 0;
  for (const group of metadata.row_groups) {
    end += Number(group.num_rows);
    if (end - start >= rowsPerRead) {
      ranges.push([start, end]);
      start = end;
    }
  }
  if (end > start || ranges.length === 0) ranges.push([start, end]);
  return ranges;
}
