// The symbol column of a long table (many tickers in one file, as pandas, Polars and DuckDB exports often are).
// A candle file holds one symbol's bars: read as one, such a file's rows of different symbols would clash as
// duplicate bars, and skipping those would keep a mix of symbols' prices as one series. So it is refused.

/** Names (compared in lower case) of a column that says each row's symbol. */
export const SYMBOL_COLUMNS: readonly string[] = ['symbol', 'ticker'];

/** Symbols listed in a problem. */
const LISTED = 5;

/** The distinct values of a symbol column, each with the first row (from 1) that holds it. */
export class SymbolColumnValues {
  private readonly firstRows = new Map<string, number>();

  constructor(readonly name: string) {}

  /** A page of the column, starting at the 0-based `rowStart`; missing values are no symbol. */
  add(data: ArrayLike<unknown>, rowStart: number): void {
    for (let index = 0; index < data.length; index += 1) {
      const value = data[index];
      if (value === null || value === undefined) continue;
      const text = value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : String(value);
      const row = rowStart + index + 1;
      const seen = this.firstRows.get(text);
      if (seen === undefined || row < seen) this.firstRows.set(text, row);
    }
  }

  /** Why the file is not one symbol's bars, or undefined when the column holds at most one symbol. */
  problem(): string | undefined {
    if (this.firstRows.size <= 1) return undefined;
    const first = [...this.firstRows].sort((a, b) => a[1] - b[1]);
    const listed = first.slice(0, LISTED).map(([symbol, row]) => `${symbol} from row ${row}`);
    const more = first.length > LISTED ? `, … ${first.length - LISTED} more` : '';
    return (
      `column ${this.name} holds ${first.length} symbols (${listed.join(', ')}${more}); a candle file holds one ` +
      `symbol's bars: write a file per symbol, named after it (${first[0]![0]}.parquet, …)`
    );
  }
}
