// The decompressors a Parquet file needs beyond the snappy hyparquet has built in: ZSTD (Polars' default),
// GZIP, BROTLI, LZ4 (Spark, pyarrow and DuckDB on request). Loaded only for files that use one of them. ZSTD
// through zstddec's WebAssembly and GZIP through node:zlib: hyparquet-compressors' JavaScript ones took most
// of such a file's load (bench/README.md); it still gives the others.
import { gunzipSync } from 'node:zlib';
import type { Compressors, FileMetaData } from 'hyparquet';

const BUILT_IN = new Set(['UNCOMPRESSED', 'SNAPPY']);

/** Decompressors for the codecs of a file's column chunks, or undefined when hyparquet reads them alone. */
export async function compressorsFor(metadata: FileMetaData): Promise<Compressors | undefined> {
  const needed = metadata.row_groups.some((group) =>
    group.columns.some((column) => column.meta_data !== undefined && !BUILT_IN.has(column.meta_data.codec)),
  );
  if (!needed) return undefined;
  const [{ decompressBrotli, decompressLz4, decompressLz4Raw }, { ZSTDDecoder }] = await Promise.all([
    import('hyparquet-compressors'),
    import('zstddec'),
  ]);
  const zstd = new ZSTDDecoder();
  await zstd.init();
  return {
    ZSTD: (input, outputLength) => zstd.decode(input, outputLength),
    GZIP: (input) => new Uint8Array(gunzipSync(input)),
    BROTLI: decompressBrotli,
    LZ4: decompressLz4,
    LZ4_RAW: decompressLz4Raw,
  };
}
