// The symbol column of a long table (many tickers in one file, as pandas, Polars and DuckDB exports often are).
// A candle file holds one symbol's bars: read as one, such a file's rows of different symbols would clash as
// duplicate bars, and skipping those would keep a mix of symbols' prices as one series. So it is refused.

/** Names (compared in lower case) of a column that says each row's symbol. */
export const SYMBOL_COLUMNS: readonly string[] = ['symbol', 'ticker'];

/** Symbols listed in a problem. */
const LISTED = 5;

/**
 * The distinct values of a symbol column, each with the first place that holds it: a Parquet row (from 1) or a
 * CSV line (`unit`).
 */
export class SymbolColumnValues {
  private readonly firstRows = new Map<string, number>();

  constructor(
    readonly name: string,
    private readonly unit: 'row' | 'line' = 'row',
  ) {}

  /** A page of the column, starting at the 0-based `rowStart`; missing values are no symbol. */
  add(data: ArrayLike<unknown>, rowStart: number): void {
    for (let index = 0; index < data.length; index += 1) {
      const value = data[index];
      if (value === null || value === undefined) continue;
      this.note(value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : String(value), rowStart + index + 1);
    }
  }

  /** One cell's symbol at its row or line; an empty cell is no symbol. */
  note(symbol: string, place: number): void {
    if (symbol === '') return;
    const seen = this.firstRows.get(symbol);
    if (seen === undefined || place < seen) this.firstRows.set(symbol, place);
  }

  /** Why the file is not one symbol's bars, or undefined when the column holds at most one symbol. */
  problem(): string | undefined {
    if (this.firstRows.size <= 1) return undefined;
    const first = [...this.firstRows].sort((a, b) => a[1] - b[1]);
    const listed = first.slice(0, LISTED).map(([symbol, place]) => `${symbol} from ${this.unit} ${place}`);
    const more = first.length > LISTED ? `, … ${first.length - LISTED} more` : '';
    return (
      `column ${this.name} holds ${first.length} symbols (${listed.join(', ')}${more}); a candle file holds one ` +
      `symbol's bars: write a file per symbol, named after it (${first[0]![0]}.${this.unit === 'row' ? 'parquet' : 'csv'}, …)`
    );
  }
}
