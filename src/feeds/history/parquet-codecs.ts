// The decompressors a Parquet file needs beyond the snappy hyparquet has built in: ZSTD (Polars' default),
// GZIP, BROTLI, LZ4 (Spark, pyarrow and DuckDB on request). Loaded only for files that use one of them.
import type { Compressors, FileMetaData } from 'hyparquet';

const BUILT_IN = new Set(['UNCOMPRESSED', 'SNAPPY']);

/** Decompressors for the codecs of a file's column chunks, or undefined when hyparquet reads them alone. */
export async function compressorsFor(metadata: FileMetaData): Promise<Compressors | undefined> {
  const needed = metadata.row_groups.some((group) =>
    group.columns.some((column) => column.meta_data !== undefined && !BUILT_IN.has(column.meta_data.codec)),
  );
  if (!needed) return undefined;
  const { decompressBrotli, decompressLz4, decompressLz4Raw, decompressZstd, gunzip } = await import('hyparquet-compressors');
  return {
    ZSTD: (input, outputLength) => decompressZstd(input, new Uint8Array(outputLength)),
    GZIP: (input, outputLength) => gunzip(input, new Uint8Array(outputLength)),
    BROTLI: decompressBrotli,
    LZ4: decompressLz4,
    LZ4_RAW: decompressLz4Raw,
  };
}
