// Printing command results: JSON for scripts (--json), aligned tables for people.

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, jsonReplacer, 2)}\n`);
}

/** Decimals and other objects with a custom toString print as strings; bigints as strings. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value !== null && typeof value === 'object' && 'toFixed' in value && 'isZero' in value) return String(value);
  return value;
}

export function formatTable(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = rows.map((row) => row.map((cell) => (cell === undefined || cell === null ? '' : String(cell))));
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => row[column]?.length ?? 0)));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}

export function printTable(headers: readonly string[], rows: readonly (readonly unknown[])[]): void {
  process.stdout.write(`${formatTable(headers, rows)}\n`);
}
