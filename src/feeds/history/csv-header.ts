// The header row of a candle CSV file: where the time, price, volume and symbol columns are, or why the
// file is not a candle file.
import { BadDataError } from './bad-data-error.js';
import { unquoted } from './csv-cell.js';
import { SYMBOL_COLUMNS } from './symbol-column.js';

const TIME_COLUMNS = ['time', 'date', 'datetime', 'timestamp'];
const PRICE_COLUMNS = ['open', 'high', 'low', 'close'] as const;
const NEWLINE = 10;
const RETURN = 13;

export interface Header {
  /** Where the first data line starts. */
  readonly bodyStart: number;
  /** Column positions: time, open, high, low, close, volume, turnover (−1 when absent). */
  readonly at: Int32Array;
  /** Cells a row must have. */
  readonly width: number;
  /** Position of a symbol or ticker column (a long table's), −1 when absent; its name. */
  readonly symbolAt: number;
  readonly symbolName: string;
}

export function readHeader(bytes: Uint8Array, source: string): Header {
  let end = bytes.indexOf(NEWLINE);
  if (end < 0) end = bytes.length;
  const bodyStart = Math.min(bytes.length, end + 1);
  if (end > 0 && bytes[end - 1] === RETURN) end -= 1;
  const header = Buffer.from(bytes.buffer, bytes.byteOffset, end)
    .toString('utf8')
    .split(',')
    .map((cell, index) => unquoted(index === 0 ? cell.replace(/^\uFEFF/, '') : cell).toLowerCase());
  const timeIndex = header.findIndex((name) => TIME_COLUMNS.includes(name));
  const priceIndexes = PRICE_COLUMNS.map((name) => header.indexOf(name));
  const volumeIndex = header.indexOf('volume');
  const missing = [
    timeIndex < 0 ? 'time|date|datetime|timestamp' : '',
    ...PRICE_COLUMNS.filter((_, index) => priceIndexes[index]! < 0),
    volumeIndex < 0 ? 'volume' : '',
  ].filter((name) => name !== '');
  if (missing.length > 0) {
    const reason =
      bytes.length === 0
        ? 'the file is empty (a candle CSV file starts with a header row: date, open, high, low, close, volume)'
        : `header lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (found: ${header.join(', ')})${separatorHint(header)}`;
    // Skipping rows cannot mend a header, so the default advice (--on-bad-row skip) is not given.
    throw new BadDataError([{ source, line: 1, reason }], 1, 'not a candle CSV file:');
  }
  const at = Int32Array.from([timeIndex, ...priceIndexes, volumeIndex, header.indexOf('turnover')]);
  const symbolAt = header.findIndex((name) => SYMBOL_COLUMNS.includes(name));
  return { bodyStart, at, width: Math.max(timeIndex, ...priceIndexes, volumeIndex) + 1, symbolAt, symbolName: header[symbolAt] ?? '' };
}

/** A header read as one cell holding `;` or tabs: the file is not comma-separated. */
function separatorHint(header: readonly string[]): string {
  if (header.length !== 1) return '';
  const separator = header[0]!.includes(';') ? 'semicolons' : header[0]!.includes('\t') ? 'tabs' : undefined;
  return separator === undefined ? '' : `; its cells are separated by ${separator}: candle CSV files are comma-separated`;
}
