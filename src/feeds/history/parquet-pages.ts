// The flat columns of a Parquet file read page by page through hyparquet's own page decoders (headers,
// codecs, levels, encodings, type conversion), each page handed on as parquetRead's onChunk would hand it:
// its values from its first row, nulls in place. What parquetRead adds for a nullable (OPTIONAL) column, as
// DuckDB, pandas and Polars write every one, is its list assembly: each value pushed one by one into a JS
// array (hyparquet issue #157), the most of such a file's load. Here a page without nulls is handed on as
// decoded, a typed array when its type has one, and only a page with nulls is spread into an array.
import type { DecodedArray, FileMetaData, PageHeader } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { convert, convertWithDictionary, DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { decompressPage, readDataPage, readDataPageV2 } from 'hyparquet/src/datapage.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { getMaxDefinitionLevel, getSchemaPath, isFlatColumn } from 'hyparquet/src/schema.js';

type ColumnDecoder = Parameters<typeof readDataPage>[2];
type Parsers = ColumnDecoder['parsers'];
type Encoding = Parameters<typeof convertWithDictionary>[2];

/** A page's values (nulls in place) from `rowStart`, a row each. */
export type OnPage = (data: ArrayLike<unknown>, rowStart: number) => void;

/** Whether a top-level column is one value a row (no nested group, not repeated): one these pages read. */
export function isFlatTopColumn(metadata: FileMetaData, name: string): boolean {
  return isFlatColumn(getSchemaPath(metadata.schema, [name]));
}

/**
 * Each page of a flat column, in row order, to `onPage`, decoded as parquetRead decodes it with the same
 * `parsers`, `utf8` and `compressors`.
 */
export function readFlatColumn(
  buffer: ArrayBuffer,
  metadata: FileMetaData,
  name: string,
  options: { readonly parsers?: Partial<Parsers>; readonly utf8?: boolean; readonly compressors?: ColumnDecoder['compressors'] },
  onPage: OnPage,
): void {
  const schemaPath = getSchemaPath(metadata.schema, [name]);
  const element = schemaPath[schemaPath.length - 1]!.element;
  const maxDefinition = getMaxDefinitionLevel(schemaPath);
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const groupRows = Number(group.num_rows);
    const meta = group.columns.find(
      (chunk) => chunk.meta_data?.path_in_schema.length === 1 && chunk.meta_data.path_in_schema[0] === name,
    )?.meta_data;
    if (meta === undefined) throw new Error(`parquet column ${name} missing from a row group`);
    const decoder: ColumnDecoder = {
      pathInSchema: meta.path_in_schema,
      type: meta.type,
      element,
      schemaPath,
      codec: meta.codec,
      parsers: { ...DEFAULT_PARSERS, ...options.parsers },
      ...(options.compressors === undefined ? {} : { compressors: options.compressors }),
      utf8: options.utf8 ?? true,
    };
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    const length = Number(meta.total_compressed_size);
    if (start + length > buffer.byteLength) throw new Error(`parquet column ${name} past the end of the file`);
    const reader = { view: new DataView(buffer, start, length), offset: 0 };
    let dictionary: DecodedArray | undefined;
    let rows = 0;
    while (rows < groupRows && reader.offset < length - 1) {
      const header = parquetHeader(reader);
      const bytes = new Uint8Array(buffer, start + reader.offset, header.compressed_page_size);
      reader.offset += header.compressed_page_size;
      if (header.type === 'DICTIONARY_PAGE') {
        const page = decompressPage(bytes, Number(header.uncompressed_page_size), decoder.codec, decoder.compressors);
        const values = readPlain(
          { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 },
          decoder.type,
          header.dictionary_page_header!.num_values,
          element.type_length,
        );
        dictionary = convert(values, decoder);
        continue;
      }
      const page = dataPage(bytes, header, decoder);
      const values = withDictionary(page.dataPage, dictionary, page.encoding, decoder);
      const levels = page.definitionLevels;
      const count = page.numValues;
      if (count === 0) continue;
      if (levels === undefined || levels.length === 0 || values.length === count) onPage(values, groupStart + rows);
      else {
        // Nulls where a row's definition level is short of the column's, as assembled lists have them.
        const cells = new Array<unknown>(count);
        let next = 0;
        for (let index = 0; index < count; index += 1) cells[index] = levels[index] === maxDefinition ? values[next++] : null;
        onPage(cells, groupStart + rows);
      }
      rows += count;
    }
    groupStart += groupRows;
  }
}

/** A data page's definition levels and stored values (dictionary indices for a dictionary encoding). */
function dataPage(
  bytes: Uint8Array,
  header: PageHeader,
  decoder: ColumnDecoder,
): { definitionLevels: number[] | undefined; dataPage: DecodedArray; encoding: Encoding; numValues: number } {
  if (header.type === 'DATA_PAGE') {
    const daph = header.data_page_header!;
    const page = decompressPage(bytes, Number(header.uncompressed_page_size), decoder.codec, decoder.compressors);
    return { ...readDataPage(page, daph, decoder), encoding: daph.encoding, numValues: daph.num_values };
  }
  if (header.type === 'DATA_PAGE_V2') {
    const daph2 = header.data_page_header_v2!;
    return { ...readDataPageV2(bytes, header, decoder), encoding: daph2.encoding, numValues: daph2.num_values };
  }
  throw new Error(`parquet unsupported page type: ${header.type}`);
}

/**
 * The values of dictionary indices: into an array of the dictionary's own type when it has one (hyparquet
 * writes them over the indices, a JS array, so an INT64 column's became a BigInt each), else (and for an
 * index past the dictionary, a damaged page) as hyparquet does.
 */
function withDictionary(
  data: DecodedArray,
  dictionary: DecodedArray | undefined,
  encoding: Encoding,
  decoder: ColumnDecoder,
): DecodedArray {
  if (dictionary === undefined || !encoding.endsWith('_DICTIONARY')) return convertWithDictionary(data, dictionary, encoding, decoder);
  if (dictionary instanceof BigInt64Array || dictionary instanceof BigUint64Array) {
    // Each value as its two 32-bit words: no BigInt made to copy it.
    const out = new (dictionary.constructor as BigInt64ArrayConstructor)(data.length);
    const words = new Int32Array(out.buffer);
    const from = new Int32Array(dictionary.buffer, dictionary.byteOffset, dictionary.length * 2);
    for (let index = 0; index < data.length; index += 1) {
      const at = (data[index] as number) * 2;
      if (!(at < from.length)) return convertWithDictionary(data, dictionary, encoding, decoder);
      words[2 * index] = from[at]!;
      words[2 * index + 1] = from[at + 1]!;
    }
    return out;
  }
  if (dictionary instanceof Float64Array || dictionary instanceof Float32Array || dictionary instanceof Int32Array) {
    const out = new (dictionary.constructor as Float64ArrayConstructor)(data.length);
    for (let index = 0; index < data.length; index += 1) {
      const at = data[index] as number;
      if (!(at < dictionary.length)) return convertWithDictionary(data, dictionary, encoding, decoder);
      out[index] = dictionary[at]!;
    }
    return out;
  }
  return convertWithDictionary(data, dictionary, encoding, decoder);
}
