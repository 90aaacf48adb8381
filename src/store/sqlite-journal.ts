// The journal in a SQLite file (better-sqlite3, WAL): every write is one prepared statement, durable at
// once; decimals are stored as their exact text.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import {
  TraderError,
  Money,
  Price,
  Quantity,
  currencyOf,
  isBlank,
  marketOf,
  positionAt,
  toWire,
  type ExitSpec,
  type OrderIntent,
  type OrderStatus,
  type OrderType,
  type Position,
  type SecuritySymbol,
  type Side,
} from '../domain/index.js';
import type { Journal, JournalExit, JournalOrder } from './journal.js';
import { checkOwner, type JournalOwner } from './journal-owner.js';
import { checkIsJournal, migrate } from './schema.js';

interface OrderRow {
  client_order_id: string;
  order_id: string | null;
  intent_id: number | null;
  strategy: string;
  symbol: string;
  side: string;
  order_type: string;
  quantity: string;
  price: string | null;
  status: string;
  executed_quantity: string;
  executed_price: string | null;
  message: string;
  created_at: number;
  updated_at: number;
}

interface ExitRow {
  strategy: string;
  symbol: string;
  exits: string;
  direction: string | null;
  best: string | null;
  fired: string | null;
  updated_at: number;
}

const TERMINAL_SQL = `('FilledStatus','RejectedStatus','CanceledStatus','ExpiredStatus','PartialWithdrawal')`;

/** Opens (creating when missing, folders included) the journal file and checks its schema version. */
export function openJournal(file: string): Journal {
  let db: Database | undefined;
  try {
    mkdirSync(dirname(file), { recursive: true });
    db = new BetterSqlite3(file);
    checkIsJournal(db, file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, file);
  } catch (error) {
    db?.close();
    if (error instanceof TraderError) throw error;
    throw new TraderError('JOURNAL_OPEN', `${file}: cannot open the journal (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
  return new SqliteJournal(db, file);
}

class SqliteJournal implements Journal {
  private readonly statements: Record<
    | 'intent'
    | 'denial'
    | 'order'
    | 'stateChange'
    | 'fill'
    | 'position'
    | 'saveExit'
    | 'removeExit'
    | 'exits'
    | 'event'
    | 'hasOrder'
    | 'openOrders'
    | 'positions',
    Statement
  >;
  /** UPDATE statements by column set (few distinct sets occur). */
  private readonly updates = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly file: string,
  ) {
    this.statements = {
      intent: db.prepare(
        `INSERT INTO intents (time, strategy, kind, symbol, side, quantity, price, reason, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      denial: db.prepare(`INSERT INTO denials (intent_id, time, strategy, code, message, figures) VALUES (?, ?, ?, ?, ?, ?)`),
      order: db.prepare(
        `INSERT INTO orders (client_order_id, order_id, intent_id, strategy, symbol, side, order_type, quantity, price, status, executed_quantity, executed_price, message, created_at, updated_at)
         VALUES (@client_order_id, @order_id, @intent_id, @strategy, @symbol, @side, @order_type, @quantity, @price, @status, @executed_quantity, @executed_price, @message, @created_at, @updated_at)`,
      ),
      stateChange: db.prepare(`INSERT INTO order_states (client_order_id, time, from_status, to_status, source) VALUES (?, ?, ?, ?, ?)`),
      fill: db.prepare(
        `INSERT OR IGNORE INTO fills (fill_id, client_order_id, order_id, strategy, symbol, side, quantity, price, commission, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      position: db.prepare(
        `INSERT INTO positions (symbol, quantity, average_cost, realized_pnl, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(symbol) DO UPDATE SET quantity = excluded.quantity, average_cost = excluded.average_cost, realized_pnl = excluded.realized_pnl, updated_at = excluded.updated_at`,
      ),
      saveExit: db.prepare(
        `INSERT INTO exits (strategy, symbol, exits, direction, best, fired, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(strategy, symbol) DO UPDATE SET exits = excluded.exits, direction = excluded.direction, best = excluded.best,
           fired = excluded.fired, updated_at = excluded.updated_at`,
      ),
      removeExit: db.prepare(`DELETE FROM exits WHERE strategy = ? AND symbol = ?`),
      exits: db.prepare(`SELECT * FROM exits ORDER BY strategy, symbol`),
      event: db.prepare(`INSERT INTO events (time, type, detail) VALUES (?, ?, ?)`),
      hasOrder: db.prepare(`SELECT 1 FROM orders WHERE client_order_id = ?`).pluck(),
      openOrders: db.prepare(`SELECT * FROM orders WHERE status NOT IN ${TERMINAL_SQL} ORDER BY created_at, client_order_id`),
      positions: db.prepare(`SELECT * FROM positions ORDER BY symbol`),
    };
  }

  recordIntent(strategy: string, time: number, intent: OrderIntent): number {
    // Values serialise as their exact decimal text (toJSON).
    const detail = JSON.stringify(intent);
    const quantity = 'quantity' in intent ? toWire(intent.quantity) : null;
    const side = intent.kind === 'order' ? intent.side : null;
    const price = intent.kind !== 'cancel' && intent.price !== undefined ? toWire(intent.price) : null;
    const result = this.statements.intent.run(
      time,
      strategy,
      intent.kind,
      intent.symbol ?? null,
      side,
      quantity,
      price,
      intent.reason ?? null,
      detail,
    );
    return Number(result.lastInsertRowid);
  }

  recordDenial(denial: Parameters<Journal['recordDenial']>[0]): void {
    this.statements.denial.run(denial.intentId, denial.time, denial.strategy, denial.code, denial.message, JSON.stringify(denial.figures));
  }

  recordOrder(order: JournalOrder): void {
    this.statements.order.run({
      client_order_id: order.clientOrderId,
      order_id: order.orderId ?? null,
      intent_id: order.intentId ?? null,
      strategy: order.strategy,
      symbol: order.symbol,
      side: order.side,
      order_type: order.orderType,
      quantity: toWire(order.quantity),
      price: order.price === undefined ? null : toWire(order.price),
      status: order.status,
      executed_quantity: toWire(order.executedQuantity),
      executed_price: order.executedPrice === undefined ? null : toWire(order.executedPrice),
      message: order.message,
      created_at: order.createdAt,
      updated_at: order.updatedAt,
    });
  }

  updateOrder(clientOrderId: string, change: Parameters<Journal['updateOrder']>[1]): void {
    const sets: string[] = ['updated_at = @updated_at'];
    const values: Record<string, unknown> = { client_order_id: clientOrderId, updated_at: change.updatedAt };
    if (change.orderId !== undefined) add('order_id', change.orderId);
    if (change.status !== undefined) add('status', change.status);
    if (change.executedQuantity !== undefined) add('executed_quantity', toWire(change.executedQuantity));
    if ('executedPrice' in change) add('executed_price', change.executedPrice === undefined ? null : toWire(change.executedPrice));
    if (change.message !== undefined) add('message', change.message);
    const sql = `UPDATE orders SET ${sets.join(', ')} WHERE client_order_id = @client_order_id`;
    let statement = this.updates.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.updates.set(sql, statement);
    }
    statement.run(values);

    function add(column: string, value: unknown): void {
      sets.push(`${column} = @${column}`);
      values[column] = value;
    }
  }

  recordStateChange(clientOrderId: string, time: number, from: OrderStatus | undefined, to: OrderStatus, source: string): void {
    this.statements.stateChange.run(clientOrderId, time, from ?? null, to, source);
  }

  recordFill(fill: Parameters<Journal['recordFill']>[0], clientOrderId: string, strategy: string): boolean {
    const result = this.statements.fill.run(
      fill.fillId,
      clientOrderId,
      fill.orderId,
      strategy,
      fill.symbol,
      fill.side,
      toWire(fill.quantity),
      toWire(fill.price),
      toWire(fill.commission),
      fill.time,
    );
    return result.changes > 0;
  }

  savePosition(position: Position, time: number): void {
    this.statements.position.run(
      position.symbol,
      toWire(position.quantity),
      toWire(position.averageCost),
      toWire(position.realizedPnl),
      time,
    );
  }

  saveExit(exit: JournalExit): void {
    this.statements.saveExit.run(
      exit.strategy,
      exit.symbol,
      JSON.stringify(exit.exits),
      exit.direction ?? null,
      exit.best === undefined ? null : toWire(exit.best),
      exit.fired ?? null,
      exit.updatedAt,
    );
  }

  removeExit(strategy: string, symbol: SecuritySymbol): void {
    this.statements.removeExit.run(strategy, symbol);
  }

  exits(): readonly JournalExit[] {
    return (this.statements.exits.all() as ExitRow[]).map((row) => ({
      strategy: row.strategy,
      symbol: row.symbol as SecuritySymbol,
      // Written by saveExit from a checked ExitSpec (plain numbers).
      exits: JSON.parse(row.exits) as ExitSpec,
      direction: row.direction === 'long' || row.direction === 'short' ? row.direction : undefined,
      best: isBlank(row.best) ? undefined : Price.of(row.best, 'best'),
      fired: row.fired ?? undefined,
      updatedAt: row.updated_at,
    }));
  }

  recordEvent(time: number, type: string, detail: Readonly<Record<string, unknown>>): void {
    this.statements.event.run(time, type, JSON.stringify(detail));
  }

  hasOrder(clientOrderId: string): boolean {
    return this.statements.hasOrder.get(clientOrderId) !== undefined;
  }

  openOrders(): readonly JournalOrder[] {
    return (this.statements.openOrders.all() as OrderRow[]).map(toJournalOrder);
  }

  positions(): readonly Position[] {
    const rows = this.statements.positions.all() as { symbol: string; quantity: string; average_cost: string; realized_pnl: string }[];
    return rows.map((row) => {
      const symbol = row.symbol as SecuritySymbol;
      const realizedPnl = Money.of(row.realized_pnl, currencyOf(marketOf(symbol)), 'realized_pnl');
      return positionAt(symbol, Quantity.of(row.quantity, 'quantity'), Price.of(row.average_cost, 'average_cost'), realizedPnl);
    });
  }

  owner(): JournalOwner | undefined {
    const text = this.db.prepare(`SELECT value FROM meta WHERE key = 'owner'`).pluck().get() as string | undefined;
    return text === undefined ? undefined : (JSON.parse(text) as JournalOwner);
  }

  claim(owner: JournalOwner): void {
    const recorded = this.owner();
    checkOwner(this.file, recorded, owner);
    // The first owner's replay start stays: it says which replay the account belongs to.
    const kept: JournalOwner = recorded?.replayFrom === undefined ? owner : { ...owner, replayFrom: recorded.replayFrom };
    this.db
      .prepare(`INSERT INTO meta (key, value) VALUES ('owner', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`)
      .run(JSON.stringify(kept));
  }

  flush(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function toJournalOrder(row: OrderRow): JournalOrder {
  return {
    clientOrderId: row.client_order_id,
    orderId: row.order_id ?? undefined,
    intentId: row.intent_id ?? undefined,
    strategy: row.strategy,
    symbol: row.symbol as SecuritySymbol,
    side: row.side as Side,
    orderType: row.order_type as OrderType,
    quantity: Quantity.of(row.quantity, 'quantity'),
    price: isBlank(row.price) ? undefined : Price.of(row.price, 'price'),
    status: row.status as OrderStatus,
    executedQuantity: Quantity.of(row.executed_quantity, 'executed_quantity'),
    executedPrice: isBlank(row.executed_price) ? undefined : Price.of(row.executed_price, 'executed_price'),
    message: row.message,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
