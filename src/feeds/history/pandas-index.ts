// The times of a pandas frame's unnamed index: `df.to_parquet()` stores such an index as a column named
// `__index_level_0__`, which the file's `pandas` metadata names as the frame's index (pandas reads it back so).
import type { FileMetaData } from 'hyparquet';

/** The column of a file's one-level pandas index, from its `pandas` metadata; undefined when it has none. */
export function pandasIndexColumn(metadata: FileMetaData): string | undefined {
  const entry = metadata.key_value_metadata?.find((pair) => pair.key === 'pandas');
  if (entry?.value === undefined) return undefined;
  try {
    // A RangeIndex is not stored: its entry is an object ({kind: 'range', …}), not a column name.
    const columns = (JSON.parse(entry.value) as { index_columns?: unknown }).index_columns;
    return Array.isArray(columns) && columns.length === 1 && typeof columns[0] === 'string' ? columns[0] : undefined;
  } catch {
    return undefined;
  }
}
