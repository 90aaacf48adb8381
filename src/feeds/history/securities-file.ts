// The securities file beside candle data (`securities.csv`): lot size, tick rule, currency and name per
// symbol. `trader data fetch` writes it from the service's static info; users may edit or write their own.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stat } from 'node:fs/promises';
import { InvalidInputError } from '../../domain/errors.js';
import { parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
import { parseTickRule, TICK_TABLES } from '../../domain/tick-rules.js';

export const SECURITIES_FILE = 'securities.csv';
const COLUMNS = ['symbol', 'name', 'currency', 'lot_size', 'tick', 'fractional_shares'] as const;

/** One row, as the venue's `instruments` setting takes it (absent fields: the market's defaults). */
export interface SecurityRow {
  readonly name?: string;
  readonly currency?: string;
  readonly lotSize?: number;
  readonly tick?: string;
  readonly fractionalShares?: boolean;
}

export type Securities = Readonly<Record<SecuritySymbol, SecurityRow>>;

/** Where the securities file of a data path (a folder, or one candle file) is. */
export async function securitiesFileOf(dataPath: string): Promise<string> {
  const info = await stat(dataPath).catch(() => undefined);
  return join(info?.isDirectory() === true ? dataPath : dirname(dataPath), SECURITIES_FILE);
}

/** Reads a securities file; {} when there is none. Every bad field is reported at once with file and line. */
export async function readSecurities(file: string): Promise<Securities> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return text === undefined ? {} : parseSecurities(text, file);
}

export function parseSecurities(text: string, source: string): Securities {
  const lines = text.split(/\r?\n/);
  const header = splitRow(lines[0] ?? '').map((name) => name.trim().toLowerCase());
  const problems: string[] = [];
  const unknown = header.filter((name) => !(COLUMNS as readonly string[]).includes(name));
  if (!header.includes('symbol')) problems.push(`${source}:1: the header has no "symbol" column (columns: ${COLUMNS.join(', ')})`);
  if (unknown.length > 0)
    problems.push(`${source}:1: unknown column ${unknown.map((name) => `"${name}"`).join(', ')} (columns: ${COLUMNS.join(', ')})`);
  const securities: Record<string, SecurityRow> = {};
  for (let index = 1; index < lines.length && problems.length < 20; index += 1) {
    const line = lines[index]!;
    if (line.trim() === '') continue;
    const cells = splitRow(line);
    const cell = (name: string): string => (cells[header.indexOf(name)] ?? '').trim();
    const at = `${source}:${index + 1}`;
    let symbol: SecuritySymbol;
    try {
      symbol = parseSymbol(cell('symbol'));
    } catch (error) {
      problems.push(`${at}: symbol: ${(error as Error).message}`);
      continue;
    }
    const row: { -readonly [K in keyof SecurityRow]: SecurityRow[K] } = {};
    if (cell('name') !== '') row.name = cell('name');
    if (cell('currency') !== '') {
      if (/^[A-Z]{3}$/.test(cell('currency'))) row.currency = cell('currency');
      else problems.push(`${at}: currency: "${cell('currency')}" is not a 3-letter code`);
    }
    if (cell('lot_size') !== '') {
      const lot = Number(cell('lot_size'));
      if (Number.isInteger(lot) && lot > 0) row.lotSize = lot;
      else problems.push(`${at}: lot_size: "${cell('lot_size')}" is not a positive whole number`);
    }
    if (cell('tick') !== '') {
      if (parseTickRule(cell('tick')) !== undefined) row.tick = cell('tick');
      else problems.push(`${at}: tick: "${cell('tick')}" is neither a tick table (${TICK_TABLES.join(', ')}) nor a positive step`);
    }
    const fractional = cell('fractional_shares').toLowerCase();
    if (fractional !== '') {
      if (fractional !== 'true' && fractional !== 'false') problems.push(`${at}: fractional_shares: "${fractional}" is not true or false`);
      else if (fractional === 'true' && !symbol.endsWith('.US'))
        problems.push(`${at}: fractional_shares: fractional shares trade only in the US market`);
      else row.fractionalShares = fractional === 'true';
    }
    securities[symbol] = row;
  }
  if (problems.length > 0) throw new InvalidInputError(`bad securities file:\n  ${problems.join('\n  ')}`, 'securities');
  return securities as Securities;
}

/** Writes the file, rows sorted by symbol; names are quoted when they need it. */
export async function writeSecurities(file: string, securities: Securities): Promise<void> {
  await writeFile(file, formatSecurities(securities));
}

export function formatSecurities(securities: Securities): string {
  const rows = Object.entries(securities)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([symbol, row]) =>
      [symbol, quote(row.name ?? ''), row.currency ?? '', row.lotSize ?? '', row.tick ?? '', row.fractionalShares ?? ''].join(','),
    );
  return `${COLUMNS.join(',')}\n${rows.map((row) => `${row}\n`).join('')}`;
}

function quote(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Splits one CSV row; double-quoted cells may hold commas and doubled quotes. */
function splitRow(line: string): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        current += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else current += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(current);
      current = '';
    } else current += char;
  }
  cells.push(current);
  return cells;
}
