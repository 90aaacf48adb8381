// Reads rows straight from a SQLite file (a journal, a paper account), read-only, as a test checks them.
import BetterSqlite3 from 'better-sqlite3';

export function sqliteRows<T = unknown>(file: string, sql: string): T[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}
