// The simulator's state in a SQLite file (`--state`): the venue's books, each order and each execution as
// its own row, the replay's market time, and the credentials, so a restarted simulator resumes where it
// stopped with the same orders, positions, cash and keys. Saves are transactional and batched: the changes
// of one turn of the event loop (an order and its fills) go out in one transaction.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { TraderError } from '../../domain/errors.js';
import type { Credentials } from '../../openapi/http/signer.js';
import type { Venue, VenueSnapshot } from '../venue/index.js';
import type { IssuedToken } from './credentials.js';

export interface SavedState {
  readonly snapshot: VenueSnapshot;
  /** Market time of the last tick the venue saw. */
  readonly marketTime: number | undefined;
  readonly credentials: Credentials | undefined;
  readonly tokens: readonly IssuedToken[];
}

const SCHEMA_VERSION = 1;

export class StateStore {
  private readonly db: Database;
  private readonly changedOrders = new Set<string>();
  private savedExecutions: number;
  private scheduled = false;

  private constructor(
    readonly file: string,
    db: Database,
  ) {
    this.db = db;
    this.savedExecutions = (db.prepare('SELECT COUNT(*) AS count FROM executions').get() as { count: number }).count;
  }

  static open(file: string): StateStore {
    try {
      mkdirSync(dirname(file), { recursive: true });
      const db = new BetterSqlite3(file);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.exec(`
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS orders (order_id TEXT PRIMARY KEY, json TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS executions (seq INTEGER PRIMARY KEY, json TEXT NOT NULL);
      `);
      const version = (db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as { value: string } | undefined)?.value;
      if (version === undefined) db.prepare("INSERT INTO meta (key, value) VALUES ('version', ?)").run(String(SCHEMA_VERSION));
      else if (Number(version) !== SCHEMA_VERSION)
        throw new Error(`state version ${version}, this simulator reads version ${SCHEMA_VERSION}`);
      return new StateStore(file, db);
    } catch (error) {
      throw new TraderError('STATE_FILE', `cannot use state file ${file}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** The saved state, or undefined for a new file. */
  load(): SavedState | undefined {
    const meta = new Map(
      (this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((row) => [row.key, row.value]),
    );
    const book = meta.get('book');
    if (book === undefined) return undefined;
    const orders = (this.db.prepare('SELECT json FROM orders').all() as { json: string }[]).map(
      (row) => JSON.parse(row.json) as VenueSnapshot['orders'][number],
    );
    const executions = (this.db.prepare('SELECT json FROM executions ORDER BY seq').all() as { json: string }[]).map(
      (row) => JSON.parse(row.json) as VenueSnapshot['executions'][number],
    );
    const marketTime = meta.get('marketTime');
    const credentials = meta.get('credentials');
    return {
      snapshot: { ...(JSON.parse(book) as VenueSnapshot), orders, executions },
      marketTime: marketTime === undefined ? undefined : Number(marketTime),
      credentials: credentials === undefined ? undefined : (JSON.parse(credentials) as Credentials),
      tokens: JSON.parse(meta.get('tokens') ?? '[]') as IssuedToken[],
    };
  }

  /** Notes a changed order; the save follows at the end of the current turn. */
  orderChanged(orderId: string, save: () => void): void {
    this.changedOrders.add(orderId);
    this.saveSoon(save);
  }

  /**
   * Notes that the replay closed a bar; the save (of the market time, with the books it goes with) follows
   * at the end of the current turn, so a simulator that crashes resumes after that bar, not at its last order.
   */
  barClosed(save: () => void): void {
    this.saveSoon(save);
  }

  private saveSoon(save: () => void): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      save();
    });
  }

  /** Writes the books, the changed orders and the new executions in one transaction. */
  save(venue: Venue, marketTime: number | undefined, credentials: Credentials, tokens: readonly IssuedToken[]): void {
    if (!this.db.open) return;
    const orders = [...this.changedOrders].map((orderId) => [orderId, JSON.stringify(venue.orderSnapshot(orderId))] as const);
    const executions = venue.executionSnapshots(this.savedExecutions);
    const upsertMeta = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    const upsertOrder = this.db.prepare(
      'INSERT INTO orders (order_id, json) VALUES (?, ?) ON CONFLICT(order_id) DO UPDATE SET json = excluded.json',
    );
    const insertExecution = this.db.prepare('INSERT INTO executions (seq, json) VALUES (?, ?)');
    this.db.transaction(() => {
      upsertMeta.run('book', JSON.stringify(venue.bookSnapshot()));
      if (marketTime !== undefined) upsertMeta.run('marketTime', String(marketTime));
      upsertMeta.run('credentials', JSON.stringify(credentials));
      upsertMeta.run('tokens', JSON.stringify(tokens));
      for (const [orderId, json] of orders) upsertOrder.run(orderId, json);
      executions.forEach((execution, index) => {
        insertExecution.run(this.savedExecutions + index, JSON.stringify(execution));
      });
    })();
    this.changedOrders.clear();
    this.savedExecutions += executions.length;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
