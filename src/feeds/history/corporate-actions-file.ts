// Dividends and splits of candle data: the `Dividends` and `Stock Splits` columns of a Yahoo-style candle
// CSV (0 = none on that day), and a separate `actions.csv` beside the data (symbol,date,kind,value).
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Fixed } from '../../domain/fixed.js';
import { Price } from '../../domain/price.js';
import { InvalidInputError } from '../../domain/errors.js';
import { parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
import type { CorporateAction } from '../../domain/corporate-action.js';
import { ACTIONS_FILE, isCandleFile, symbolFromFileName, wantedByCode } from './candle-files.js';
import { unquoted } from './csv-cell.js';
import { readFirstLine } from './file-bytes.js';

export { ACTIONS_FILE } from './candle-files.js';
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** The actions of the data at `dataPath` (a candle CSV or a folder of them) for `symbols`, oldest first. */
export async function loadCorporateActions(dataPath: string, symbols: readonly SecuritySymbol[]): Promise<CorporateAction[]> {
  const info = await stat(dataPath);
  const folder = info.isDirectory() ? dataPath : dirname(dataPath);
  const files = info.isDirectory() ? (await readdir(dataPath)).filter(isCandleFile).map((name) => join(dataPath, name)) : [dataPath];
  const named = new Set(files.map(symbolFromFileName));
  const actions: CorporateAction[] = [];
  for (const file of files) {
    // The symbol the candle loader reads the file for (candle-files.ts): its name, else the one asked for.
    const symbol =
      symbolFromFileName(file) ??
      (files.length === 1 && symbols.length === 1 ? symbols[0] : info.isDirectory() ? wantedByCode(file, symbols, named) : undefined);
    if (symbol !== undefined && symbols.includes(symbol) && file.toLowerCase().endsWith('.csv'))
      actions.push(...(await candleFileActionsOf(file, symbol)));
  }
  // `trader data convert` copies the columns' actions into actions.csv: one in both is the same action, applied once.
  const inColumns = new Set(actions.map(actionKey));
  const extra = await readFile(join(folder, ACTIONS_FILE), 'utf8').catch(() => undefined);
  if (extra !== undefined)
    actions.push(
      ...parseActionsFile(extra, join(folder, ACTIONS_FILE)).filter(
        (action) => symbols.includes(action.symbol) && !inColumns.has(actionKey(action)),
      ),
    );
  return actions.sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : 0));
}

/** The actions of a candle CSV's `Dividends` and `Stock Splits` columns; without them only its header is read. */
export async function candleFileActionsOf(file: string, symbol: SecuritySymbol): Promise<CorporateAction[]> {
  return hasActionColumns(readFirstLine(file)) ? candleFileActions(await readFile(file, 'utf8'), symbol, file) : [];
}

/** What makes two actions one: symbol, ex-date, kind and value (0.5 and 0.50 alike). */
export function actionKey(action: CorporateAction): string {
  const value = action.kind === 'dividend' ? action.perShare : action.ratio;
  return `${action.symbol} ${action.exDate} ${action.kind} ${value.normalized().toString()}`;
}

/** Whether a candle CSV header names a `Dividends` or a `Stock Splits` column (most files have neither). */
function hasActionColumns(header: string): boolean {
  return header
    .split(',')
    .map((name) => unquoted(name).toLowerCase())
    .some((name) => name === 'dividends' || name === 'stock splits');
}

/** The non-zero `Dividends` and `Stock Splits` cells of a candle CSV; [] when it has neither column. */
export function candleFileActions(text: string, symbol: SecuritySymbol, source: string): CorporateAction[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((name) => unquoted(name).toLowerCase());
  const dividends = header.indexOf('dividends');
  const splits = header.indexOf('stock splits');
  if (dividends < 0 && splits < 0) return [];
  const dateColumn = header.findIndex((name) => name === 'date' || name === 'time' || name === 'datetime');
  const actions: CorporateAction[] = [];
  for (let index = 1; index < lines.length; index += 1) {
    const cells = lines[index]!.split(',');
    if (cells.length < 2) continue;
    const exDate = unquoted(cells[dateColumn] ?? '').slice(0, 10);
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
  const text = unquoted(cells[column] ?? '');
  if (text === '') return undefined;
  if (!NUMBER.test(text)) throw new InvalidInputError(`${at}: ${field}: "${text}" is not a number`, 'actions');
  return Fixed.of(text);
}

function positive(value: Fixed, at: string, field: string): Fixed {
  if (!value.isPositive())
    throw new InvalidInputError(`${at}: ${field}: a split ratio must be positive, got ${value.toString()}`, 'actions');
  return value;
}
