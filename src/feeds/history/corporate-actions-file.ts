// Dividends and splits of candle data: the `Dividends` and `Stock Splits` columns of a Yahoo-style candle
// CSV (0 = none on that day), and a separate `actions.csv` beside the data (symbol,date,kind,value).
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Fixed } from '../../domain/fixed.js';
import { Price } from '../../domain/price.js';
import { InvalidInputError } from '../../domain/errors.js';
import { parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
import type { CorporateAction } from '../../domain/corporate-action.js';
import { symbolFromFileName } from './candle-files.js';
import { readFirstLine } from './file-bytes.js';

export const ACTIONS_FILE = 'actions.csv';
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** The actions of the data at `dataPath` (a candle CSV or a folder of them) for `symbols`, oldest first. */
export async function loadCorporateActions(dataPath: string, symbols: readonly SecuritySymbol[]): Promise<CorporateAction[]> {
  const info = await stat(dataPath);
  const folder = info.isDirectory() ? dataPath : dirname(dataPath);
  const files = info.isDirectory()
    ? (await readdir(dataPath)).filter((name) => name.toLowerCase().endsWith('.csv')).map((name) => join(dataPath, name))
    : [dataPath];
  const actions: CorporateAction[] = [];
  for (const file of files) {
    const symbol = symbolFromFileName(basename(file));
    if (symbol === undefined || !symbols.includes(symbol) || !hasActionColumns(readFirstLine(file))) continue;
    actions.push(...candleFileActions(await readFile(file, 'utf8'), symbol, file));
  }
  const extra = await readFile(join(folder, ACTIONS_FILE), 'utf8').catch(() => undefined);
  if (extra !== undefined)
    actions.push(...parseActionsFile(extra, join(folder, ACTIONS_FILE)).filter((action) => symbols.includes(action.symbol)));
  return actions.sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : 0));
}

/** Whether a candle CSV header names a `Dividends` or a `Stock Splits` column (most files have neither). */
function hasActionColumns(header: string): boolean {
  return header
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .some((name) => name === 'dividends' || name === 'stock splits');
}

/** The non-zero `Dividends` and `Stock Splits` cells of a candle CSV; [] when it has neither column. */
export function candleFileActions(text: string, symbol: SecuritySymbol, source: string): CorporateAction[] {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((name) => name.trim().toLowerCase());
  const dividends = header.indexOf('dividends');
  const splits = header.indexOf('stock splits');
  if (dividends < 0 && splits < 0) return [];
  const dateColumn = header.findIndex((name) => name === 'date' || name === 'time' || name === 'datetime');
  const actions: CorporateAction[] = [];
  for (let index = 1; index < lines.length; index += 1) {
    const cells = lines[index]!.split(',');
    if (cells.length < 2) continue;
    const exDate = (cells[dateColumn] ?? '').trim().slice(0, 10);
    const at = `${source}:${index + 1}`;
    const dividend = valueAt(cells, dividends, at, 'Dividends');
    if (dividend !== undefined && !dividend.isZero()) actions.push({ kind: 'dividend', symbol, exDate, perShare: Price.of(dividend) });
    const ratio = valueAt(cells, splits, at, 'Stock Splits');
    if (ratio !== undefined && !ratio.isZero()) actions.push({ kind: 'split', symbol, exDate, ratio: positive(ratio, at, 'Stock Splits') });
  }
  return actions;
}

/** `symbol,date,kind,value`: kind `dividend` (cash per share) or `split` (new shares per old share). */
export function parseActionsFile(text: string, source: string): CorporateAction[] {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((name) => name.trim().toLowerCase());
  const column = (name: string): number => {
    const index = header.indexOf(name);
    if (index < 0)
      throw new InvalidInputError(`${source}:1: the header needs the columns symbol,date,kind,value (no "${name}")`, 'actions');
    return index;
  };
  const [symbolAt, dateAt, kindAt, valueAt_] = [column('symbol'), column('date'), column('kind'), column('value')];
  const actions: CorporateAction[] = [];
  for (let index = 1; index < lines.length; index += 1) {
    if (lines[index]!.trim() === '') continue;
    const cells = lines[index]!.split(',').map((cell) => cell.trim());
    const at = `${source}:${index + 1}`;
    let symbol: SecuritySymbol;
    try {
      symbol = parseSymbol(cells[symbolAt] ?? '');
    } catch (error) {
      throw new InvalidInputError(`${at}: symbol: ${(error as Error).message}`, 'actions');
    }
    const exDate = cells[dateAt] ?? '';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(exDate)) throw new InvalidInputError(`${at}: date: "${exDate}" is not a YYYY-MM-DD date`, 'actions');
    const value = valueAt(cells, valueAt_, at, 'value') ?? Fixed.ZERO;
    const kind = (cells[kindAt] ?? '').toLowerCase();
    if (kind === 'dividend') actions.push({ kind, symbol, exDate, perShare: Price.of(value) });
    else if (kind === 'split') actions.push({ kind, symbol, exDate, ratio: positive(value, at, 'value') });
    else throw new InvalidInputError(`${at}: kind: "${cells[kindAt] ?? ''}" is not dividend or split`, 'actions');
  }
  return actions;
}

function valueAt(cells: readonly string[], column: number, at: string, field: string): Fixed | undefined {
  if (column < 0) return undefined;
  const text = (cells[column] ?? '').trim();
  if (text === '') return undefined;
  if (!NUMBER.test(text)) throw new InvalidInputError(`${at}: ${field}: "${text}" is not a number`, 'actions');
  return Fixed.of(text);
}

function positive(value: Fixed, at: string, field: string): Fixed {
  if (!value.isPositive())
    throw new InvalidInputError(`${at}: ${field}: a split ratio must be positive, got ${value.toString()}`, 'actions');
  return value;
}
