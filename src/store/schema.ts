// The journal's SQLite schema, versioned: an older journal is brought up to date in one transaction when it is
// opened, a file written by a newer version is refused, never guessed at, and a SQLite file that is not a
// journal is refused untouched.
import type { Database } from 'better-sqlite3';
import { InvalidInputError, TraderError } from '../domain/index.js';

export const SCHEMA_VERSION = 2;

const VERSION_1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE intents (
  id INTEGER PRIMARY KEY AUTOINCREMENT, time INTEGER NOT NULL, strategy TEXT NOT NULL, kind TEXT NOT NULL,
  symbol TEXT, side TEXT, quantity TEXT, price TEXT, reason TEXT, detail TEXT NOT NULL);
CREATE TABLE denials (
  id INTEGER PRIMARY KEY AUTOINCREMENT, intent_id INTEGER NOT NULL REFERENCES intents(id), time INTEGER NOT NULL,
  strategy TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL, figures TEXT NOT NULL);
CREATE TABLE orders (
  client_order_id TEXT PRIMARY KEY, order_id TEXT UNIQUE, intent_id INTEGER REFERENCES intents(id),
  strategy TEXT NOT NULL, symbol TEXT NOT NULL, side TEXT NOT NULL, order_type TEXT NOT NULL,
  quantity TEXT NOT NULL, price TEXT, status TEXT NOT NULL, executed_quantity TEXT NOT NULL,
  executed_price TEXT, message TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE INDEX orders_by_status ON orders (status);
CREATE TABLE order_states (
  id INTEGER PRIMARY KEY AUTOINCREMENT, client_order_id TEXT NOT NULL REFERENCES orders(client_order_id),
  time INTEGER NOT NULL, from_status TEXT, to_status TEXT NOT NULL, source TEXT NOT NULL);
CREATE TABLE fills (
  fill_id TEXT PRIMARY KEY, client_order_id TEXT NOT NULL REFERENCES orders(client_order_id), order_id TEXT NOT NULL,
  strategy TEXT NOT NULL, symbol TEXT NOT NULL, side TEXT NOT NULL, quantity TEXT NOT NULL, price TEXT NOT NULL,
  commission TEXT NOT NULL, time INTEGER NOT NULL);
CREATE TABLE positions (symbol TEXT PRIMARY KEY, quantity TEXT NOT NULL, average_cost TEXT NOT NULL, realized_pnl TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, time INTEGER NOT NULL, type TEXT NOT NULL, detail TEXT NOT NULL);
`;

// Exits held by the runtime for a strategy's position (stop-loss, take-profit, trailing stop), so a restart
// re-arms them. direction is NULL until the position was seen open; best is the trailing stop's reference;
// fired is the tag of the exit whose level was reached while its close has not flattened the position.
const VERSION_2 = `
CREATE TABLE exits (
  strategy TEXT NOT NULL, symbol TEXT NOT NULL, exits TEXT NOT NULL, direction TEXT, best TEXT, fired TEXT,
  updated_at INTEGER NOT NULL, PRIMARY KEY (strategy, symbol));
`;

/** What takes a journal of version n − 1 to version n, by n. */
const UPGRADES: ReadonlyMap<number, string> = new Map([[2, VERSION_2]]);

/**
 * Reads, without writing anything, whether the file is empty (a new journal) or one of ours; any other
 * SQLite database is refused before a table or a pragma could change it.
 */
export function checkIsJournal(db: Database, file: string): 'empty' | 'journal' {
  const objects = db.prepare(`SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name`).all() as {
    type: string;
    name: string;
  }[];
  if (objects.length === 0) return 'empty';
  const tables = objects.filter((object) => object.type === 'table').map((object) => object.name);
  const required = ['meta', 'intents', 'orders', 'fills', 'positions'];
  const version =
    tables.includes('meta') && db.prepare(`SELECT 1 FROM pragma_table_info('meta') WHERE name = 'value'`).get() !== undefined
      ? db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get()
      : undefined;
  if (version !== undefined && required.every((table) => tables.includes(table))) return 'journal';
  const names = objects.map((object) => object.name);
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');
  throw new InvalidInputError(
    `${file} is a SQLite database but not a trader journal (it holds ${shown}); it was left unchanged: point --journal at a new file or an existing journal`,
    'journal',
  );
}

/** Creates the schema in an empty file, or brings an older journal up to this version; a newer or unknown one is refused. */
export function migrate(db: Database, file: string): void {
  const setVersion = (): void => {
    db.prepare(`INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(
      String(SCHEMA_VERSION),
    );
  };
  const hasMeta = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get() !== undefined;
  if (!hasMeta) {
    db.transaction(() => {
      db.exec(VERSION_1);
      for (const upgrade of UPGRADES.values()) db.exec(upgrade);
      setVersion();
    })();
    return;
  }
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get() as { value: string } | undefined;
  const version = Number(row?.value);
  if (!Number.isInteger(version) || version < 1 || version > SCHEMA_VERSION) {
    throw new TraderError(
      'JOURNAL_VERSION',
      `${file}: journal schema version ${row?.value ?? 'unknown'} is not ${SCHEMA_VERSION}, the version this trader writes`,
    );
  }
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let next = version + 1; next <= SCHEMA_VERSION; next += 1) db.exec(UPGRADES.get(next)!);
    setVersion();
  })();
}
