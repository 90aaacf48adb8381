// Opening the catalog's SQLite file: WAL, foreign keys on, schema created (or checked) on start.
import Database from 'better-sqlite3';

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS artists (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  name        TEXT    NOT NULL,
  search_key  TEXT    NOT NULL,
  description TEXT,
  image       TEXT,
  band        TEXT
);
CREATE INDEX IF NOT EXISTS artists_by_search_key ON artists (search_key, id);
CREATE TABLE IF NOT EXISTS albums (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  artist_id INTEGER NOT NULL REFERENCES artists (id) ON DELETE CASCADE,
  name      TEXT    NOT NULL,
  year      INTEGER NOT NULL,
  image     TEXT
);
CREATE INDEX IF NOT EXISTS albums_by_artist ON albums (artist_id, year, id);
`;

export class DatabaseVersionError extends Error {
  constructor(path: string, found: number) {
    super(`${path}: catalog database has schema version ${found}, this server knows only up to ${SCHEMA_VERSION}`);
    this.name = 'DatabaseVersionError';
  }
}

/** How long a write waits for another process's lock on the file before it is answered 503. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export function openDatabase(path: string, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS): Database.Database {
  const database = new Database(path);
  try {
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    // Readers never block the single writer in WAL; the wait only matters if another process holds the file.
    database.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    database.pragma('synchronous = NORMAL');
    const found = Number(database.pragma('user_version', { simple: true }));
    if (found > SCHEMA_VERSION) throw new DatabaseVersionError(path, found);
    database.transaction(() => {
      database.exec(SCHEMA);
      database.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}
