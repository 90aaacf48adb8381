import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sqliteRows } from '../support/sqlite-rows.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Decimal, Money, parseSymbol, positionAt, type Fill } from '../../src/domain/index.js';
import { SCHEMA_VERSION, openJournal, type Journal, type JournalOrder } from '../../src/store/index.js';
import { Price, Quantity } from '../../src/domain/index.js';

const AAPL = parseSymbol('AAPL.US');
let folder: string;
let file: string;
let journal: Journal | undefined;

function order(clientOrderId: string, overrides: Partial<JournalOrder> = {}): JournalOrder {
  return {
    clientOrderId,
    orderId: undefined,
    intentId: undefined,
    strategy: 'sma',
    symbol: AAPL,
    side: 'Buy',
    orderType: 'LO',
    quantity: Quantity.of('100'),
    price: Price.of('187.25'),
    status: 'NotReported',
    executedQuantity: Quantity.ZERO,
    executedPrice: undefined,
    message: '',
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

const fill: Fill = {
  fillId: 'O1:40',
  orderId: 'O1',
  symbol: AAPL,
  side: 'Buy',
  quantity: Quantity.of(40),
  price: Price.of('187.2'),
  time: 2_000,
  commission: Money.of('0.99', 'USD'),
};

const rows = (sql: string): unknown[] => sqliteRows(file, sql);

describe('SQLite journal', () => {
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'journal-'));
    file = join(folder, 'state', 'journal.sqlite');
  });
  afterEach(async () => {
    journal?.close();
    journal = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it('creates the file (and its folder) in WAL mode with the schema version', () => {
    journal = openJournal(file);

    expect(rows(`SELECT value FROM meta WHERE key = 'schema_version'`)).toEqual([{ value: String(SCHEMA_VERSION) }]);
    const db = new BetterSqlite3(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('records intents, denials, orders, state changes, fills, positions and events as exact text', () => {
    journal = openJournal(file);
    const intentId = journal.recordIntent('sma', 500, {
      kind: 'order',
      symbol: AAPL,
      side: 'Buy',
      quantity: Quantity.of('100'),
      price: Price.of('187.25'),
      reason: 'cross',
    });
    journal.recordDenial({
      intentId,
      strategy: 'sma',
      time: 600,
      code: 'EXCEEDS_BUY_POWER',
      message: 'order value 18725 exceeds buy power 100',
      figures: { required: '18725', available: '100' },
    });
    journal.recordOrder(order('lt-a-1', { intentId }));
    journal.updateOrder('lt-a-1', {
      orderId: 'O1',
      status: 'PartialFilledStatus',
      executedQuantity: Quantity.of(40),
      executedPrice: Price.of('187.2'),
      updatedAt: 2_000,
    });
    journal.recordStateChange('lt-a-1', 2_000, 'NotReported', 'PartialFilledStatus', 'push');
    journal.recordFill(fill, 'lt-a-1', 'sma');
    journal.savePosition(positionAt(AAPL, Quantity.of(40), Price.of('187.2')), 2_000);
    journal.recordEvent(3_000, 'reconciliation-mismatch', { kind: 'position', reported: new Decimal('41') });

    expect(rows('SELECT id, time, strategy, kind, symbol, side, quantity, price, reason FROM intents')).toEqual([
      {
        id: intentId,
        time: 500,
        strategy: 'sma',
        kind: 'order',
        symbol: 'AAPL.US',
        side: 'Buy',
        quantity: '100',
        price: '187.25',
        reason: 'cross',
      },
    ]);
    expect(rows('SELECT intent_id, code, figures FROM denials')).toEqual([
      { intent_id: intentId, code: 'EXCEEDS_BUY_POWER', figures: '{"required":"18725","available":"100"}' },
    ]);
    expect(rows('SELECT client_order_id, order_id, status, quantity, price, executed_quantity, executed_price FROM orders')).toEqual([
      {
        client_order_id: 'lt-a-1',
        order_id: 'O1',
        status: 'PartialFilledStatus',
        quantity: '100',
        price: '187.25',
        executed_quantity: '40',
        executed_price: '187.2',
      },
    ]);
    expect(rows('SELECT client_order_id, from_status, to_status, source FROM order_states')).toEqual([
      { client_order_id: 'lt-a-1', from_status: 'NotReported', to_status: 'PartialFilledStatus', source: 'push' },
    ]);
    expect(rows('SELECT fill_id, quantity, price, commission FROM fills')).toEqual([
      { fill_id: 'O1:40', quantity: '40', price: '187.2', commission: '0.99' },
    ]);
    expect(rows('SELECT symbol, quantity, average_cost FROM positions')).toEqual([
      { symbol: 'AAPL.US', quantity: '40', average_cost: '187.2' },
    ]);
    expect(rows('SELECT type, detail FROM events')).toEqual([
      { type: 'reconciliation-mismatch', detail: '{"kind":"position","reported":"41"}' },
    ]);
  });

  it('ignores a fill recorded twice', () => {
    journal = openJournal(file);
    journal.recordOrder(order('lt-a-1', { orderId: 'O1' }));

    expect(journal.recordFill(fill, 'lt-a-1', 'sma')).toBe(true);
    expect(journal.recordFill(fill, 'lt-a-1', 'sma')).toBe(false);
    expect(rows('SELECT COUNT(*) AS n FROM fills')).toEqual([{ n: 1 }]);
  });

  it('reads back open orders and positions after reopening the file', () => {
    journal = openJournal(file);
    journal.recordOrder(order('lt-a-1'));
    journal.recordOrder(order('lt-a-2', { orderId: 'O2', status: 'FilledStatus' }));
    journal.recordOrder(
      order('lt-a-3', {
        orderId: 'O3',
        status: 'PartialFilledStatus',
        executedQuantity: Quantity.of(10),
        executedPrice: Price.of('187.3'),
      }),
    );
    journal.savePosition(positionAt(AAPL, Quantity.of(10), Price.of('187.3'), Money.of('-1.5', 'USD')), 2_000);
    journal.close();

    journal = openJournal(file);
    const open = journal.openOrders();

    expect(open.map((row) => [row.clientOrderId, row.orderId, row.status, row.executedQuantity.toFixed()])).toEqual([
      ['lt-a-1', undefined, 'NotReported', '0'],
      ['lt-a-3', 'O3', 'PartialFilledStatus', '10'],
    ]);
    expect(open[1]?.price?.toFixed()).toBe('187.25');
    expect(journal.positions().map((position) => [position.symbol, position.quantity.toFixed(), position.realizedPnl.toFixed()])).toEqual([
      ['AAPL.US', '10', '-1.5'],
    ]);
  });

  it('keeps values beyond 2^53 of their smallest unit exact through the file', () => {
    journal = openJournal(file);
    // 90,071,992,547,409.93 in cents, and the cost of 12,345,678,901.2345 shares at 1,234.5678 (checked
    // with Python's decimal): raws past 2^53.
    const position = positionAt(AAPL, Quantity.of('12345678901.2345'), Price.of('1234.5678'), Money.of('90071992547409.93', 'USD'));
    expect(typeof position.realizedPnl.raw).toBe('bigint');
    journal.savePosition(position, 2_000);
    journal.close();

    journal = openJournal(file);
    const [read] = journal.positions();
    expect([read?.quantity.toString(), read?.averageCost.toString(), read?.realizedPnl.toString()]).toEqual([
      '12345678901.2345',
      '1234.5678',
      '90071992547409.93',
    ]);
    expect(read?.cost.toString()).toBe('15241577640603.4939491');
    expect(read?.cost.eq(position.cost)).toBe(true);
  });

  it('keeps the exits held for each strategy and symbol, replaces them on change, reads the best price back exactly and forgets them', () => {
    journal = openJournal(file);
    const stop = { stopLoss: { percent: 0.05 }, trailingStop: { amount: 2.5 } };
    const exit = { strategy: 'sma', symbol: AAPL, exits: stop, direction: undefined, best: undefined, fired: undefined, updatedAt: 1_000 };
    journal.saveExit(exit);
    journal.saveExit({
      ...exit,
      strategy: 'rsi',
      exits: { takeProfit: { percent: 0.2 } },
      direction: 'short',
      best: Price.of('180.5'),
      updatedAt: 1_500,
    });
    // Any float: the journal keeps its shortest text, which reads back as the same float.
    const best = 187.1 + 0.2;
    journal.saveExit({ ...exit, direction: 'long', best: Price.of(best), fired: 'trailing-stop', updatedAt: 2_000 });
    journal.close();

    journal = openJournal(file);
    const read = journal.exits();

    expect(read.map((row) => ({ ...row, best: row.best?.toString() }))).toEqual([
      { ...exit, strategy: 'rsi', exits: { takeProfit: { percent: 0.2 } }, direction: 'short', best: '180.5', updatedAt: 1_500 },
      { ...exit, direction: 'long', best: '187.29999999999998', fired: 'trailing-stop', updatedAt: 2_000 },
    ]);
    expect(Number(read[1]!.best!.toString())).toBe(best);
    journal.removeExit('sma', AAPL);
    expect(journal.exits().map((row) => row.strategy)).toEqual(['rsi']);
    expect(rows('SELECT strategy, direction, best, fired FROM exits')).toEqual([
      { strategy: 'rsi', direction: 'short', best: '180.5', fired: null },
    ]);
  });

  it('brings a journal of the previous schema version up to date, keeping what it holds', () => {
    journal = openJournal(file);
    journal.recordOrder(order('lt-1'));
    journal.close();
    const db = new BetterSqlite3(file);
    db.exec(`DROP TABLE exits; UPDATE meta SET value = '1' WHERE key = 'schema_version'`);
    db.close();

    journal = openJournal(file);

    expect(rows(`SELECT value FROM meta WHERE key = 'schema_version'`)).toEqual([{ value: String(SCHEMA_VERSION) }]);
    expect(journal.openOrders().map((row) => row.clientOrderId)).toEqual(['lt-1']);
    expect(journal.exits()).toEqual([]);
    journal.saveExit({
      strategy: 'sma',
      symbol: AAPL,
      exits: { stopLoss: { amount: 1 } },
      direction: undefined,
      best: undefined,
      fired: undefined,
      updatedAt: 1,
    });
    expect(journal.exits()).toHaveLength(1);
  });

  it('refuses a journal of another schema version, naming the file', () => {
    openJournal(file).close();
    const db = new BetterSqlite3(file);
    db.prepare(`UPDATE meta SET value = '99' WHERE key = 'schema_version'`).run();
    db.close();

    expect(() => openJournal(file)).toThrow(`${file}: journal schema version 99 is not ${SCHEMA_VERSION}, the version this trader writes`);
  });

  it('refuses a SQLite database that is not a journal and leaves it exactly as it was', () => {
    mkdirSync(join(folder, 'state'), { recursive: true });
    const db = new BetterSqlite3(file);
    db.exec(`CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('Blue in Green')`);
    db.close();
    const before = readFileSync(file);

    expect(() => openJournal(file)).toThrow(
      `${file} is a SQLite database but not a trader journal (it holds songs); it was left unchanged: point --journal at a new file or an existing journal`,
    );

    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(sqliteRows(file, `SELECT name FROM sqlite_master`)).toEqual([{ name: 'songs' }]);
  });

  it('records the account it belongs to and refuses another account or mode, naming both', () => {
    const accountA = { mode: 'live', account: 'key-a', venue: 'https://openapi.longportapp.com' } as const;
    journal = openJournal(file);
    expect(journal.owner()).toBeUndefined();
    journal.claim(accountA);
    journal.close();

    journal = openJournal(file);
    expect(journal.owner()).toEqual(accountA);
    expect(() => journal!.claim({ ...accountA, venue: 'https://openapi.longportapp.cn' })).not.toThrow();
    expect(() => journal!.claim({ ...accountA, account: 'key-b' })).toThrow(
      `${file} is the journal of the live account key-a (https://openapi.longportapp.cn), not of the live account key-b (https://openapi.longportapp.com): it holds that account's orders and positions; use another --journal for this account`,
    );
    expect(() => journal!.claim({ ...accountA, mode: 'paper' })).toThrow(
      /is the journal of the live account key-a .* not of the paper account key-a/,
    );
    expect(journal.owner()?.account).toBe('key-a');
  });

  it('moves everything from the write-ahead log into the file on flush', () => {
    journal = openJournal(file);
    journal.recordIntent('sma', 1, { kind: 'cancel' });
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);

    journal.flush();

    expect(statSync(`${file}-wal`).size).toBe(0);
    expect(rows('SELECT kind FROM intents')).toEqual([{ kind: 'cancel' }]);
  });
});
