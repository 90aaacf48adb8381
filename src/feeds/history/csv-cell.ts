// A CSV cell as text: without its spaces and the double quotes spreadsheets and pandas may put around it.

export function unquoted(cell: string): string {
  const text = cell.trim();
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1).trim() : text;
}
