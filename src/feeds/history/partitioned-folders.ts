// Folders named KEY=VALUE, as partitioned Parquet writers make them (DuckDB's PARTITION_BY, Spark's partitionBy,
// pandas' partition_cols): a data folder of those holds no candle file, and its error says what to write instead.
import { readdir } from 'node:fs/promises';
import { parseSymbol } from '../../domain/symbol.js';

const PARTITION = /^[^=]+=[^=]*$/;

/** "; its folders symbol=AAPL.US, … are a partitioned dataset …" for a folder holding such folders; '' otherwise. */
export async function partitionedHint(folder: string): Promise<string> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const partitions = entries
    .filter((entry) => entry.isDirectory() && PARTITION.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  if (partitions.length === 0) return '';
  const value = partitions[0]!.slice(partitions[0]!.indexOf('=') + 1);
  const example = isSymbol(value) ? `${value}.parquet` : '700.HK.parquet';
  const shown = partitions.slice(0, 3).join(', ') + (partitions.length > 3 ? ', …' : '');
  return (
    `; its folders ${shown} are a partitioned dataset (as DuckDB's PARTITION_BY and Spark's partitionBy write), ` +
    `not candle files: write one file per symbol, named after it (${example})`
  );
}

function isSymbol(text: string): boolean {
  try {
    parseSymbol(text);
    return true;
  } catch {
    return false;
  }
}
