import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteRows } from '../support/sqlite-rows.js';
import { EMPTY } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { Money, parseSymbol, positionAt } from '../../src/domain/index.js';
import type { Runtime } from '../../src/runtime/index.js';
import { openJournal, type Journal } from '../../src/store/index.js';
import { defineStrategy, prepareStrategy } from '../../src/strategy/index.js';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { START, testRuntime, type TestRuntime } from '../support/execution/runtime-setup.js';
import { StubBroker } from '../support/execution/stub-broker.js';
import { Price, Quantity } from '../../src/domain/index.js';

const AAPL = parseSymbol('AAPL.US');
let folder: string;
let file: string;
const open: { journals: Journal[]; runtimes: Runtime[] } = { journals: [], runtimes: [] };

function journal(): Journal {
  const opened = openJournal(file);
  open.journals.push(opened);
  return opened;
}

// A strategy that records what it can see the moment it starts (before any market data).
function observer(name: string) {
  const seen: { position: Quantity | undefined } = { position: undefined };
  const definition = defineStrategy({
    name,
    symbols: ['AAPL.US'],
    run: (ctx) => {
      seen.position = ctx.positions.quantity();
      return EMPTY;
    },
  });
  return { strategy: prepareStrategy(definition), seen };
}

const rows = (sql: string): unknown[] => sqliteRows(file, sql);

describe('reconciliation', () => {
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'reconcile-'));
    file = join(folder, 'journal.sqlite');
  });
  afterEach(async () => {
    for (const runtime of open.runtimes.splice(0)) await runtime.stop();
    for (const opened of open.journals.splice(0)) opened.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('after a restart mid-submit, finds the order by remark, takes its fills and does not send it again', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = manualStrategy('trader');
    const before = testRuntime([first.strategy], { clock: new VirtualClock(START), broker, journal: journal() });
    await before.runtime.start();
    broker.planSubmits('hang');
    broker.holdPushes = true;
    first.emit((ctx) => ctx.buy(100, { price: 10 }));
    await before.clock.advanceByAsync(0);
    // The process dies while the submit is in flight: its journal handle and its push link are gone.
    open.journals[0]!.close();
    broker.severPushes();
    broker.held.splice(0);
    broker.holdPushes = false;
    broker.fill('SO1', 60, 10);

    clock.advanceBy(60_000);
    const watcher = observer('trader');
    const after = testRuntime([watcher.strategy], { clock, broker, journal: journal() });
    open.runtimes.push(after.runtime);
    await after.runtime.start();

    expect(broker.calls.submitOrder).toBe(1);
    expect(watcher.seen.position?.toFixed()).toBe('60');
    expect(after.ofType('order-updated')).toMatchObject([
      { source: 'restart', orderId: 'SO1', from: 'NotReported', status: 'PartialFilledStatus' },
    ]);
    expect(after.ofType('reconciliation-mismatch')).toEqual([]);
    expect(rows('SELECT order_id, status, executed_quantity FROM orders')).toEqual([
      { order_id: 'SO1', status: 'PartialFilledStatus', executed_quantity: '60' },
    ]);
    expect(rows('SELECT fill_id, quantity FROM fills')).toEqual([{ fill_id: 'SO1:60', quantity: '60' }]);

    broker.fill('SO1', 40, 10);

    expect(after.runtime.positions.quantity(AAPL).toFixed()).toBe('100');
    expect(rows('SELECT fill_id FROM fills ORDER BY fill_id')).toEqual([{ fill_id: 'SO1:100' }, { fill_id: 'SO1:60' }]);
  });

  it("after a restart on the next market day, finds the order it never got an answer for in the broker's history", async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = manualStrategy('trader');
    const before = testRuntime([first.strategy], { clock: new VirtualClock(START), broker, journal: journal() });
    await before.runtime.start();
    broker.planSubmits('hang');
    broker.holdPushes = true;
    first.emit((ctx) => ctx.buy(100, { price: 10 }));
    await before.clock.advanceByAsync(0);
    open.journals[0]!.close();
    broker.severPushes();
    broker.held.splice(0);
    broker.holdPushes = false;
    broker.fill('SO1', 100, 10);
    broker.passDay();

    clock.advanceBy(18 * 3_600_000);
    const after = testRuntime([observer('trader').strategy], { clock, broker, journal: journal() });
    open.runtimes.push(after.runtime);
    await after.runtime.start();

    expect(broker.calls.historyOrders).toBe(1);
    expect(after.ofType('reconciliation-mismatch')).toEqual([]);
    expect(rows('SELECT order_id, status, executed_quantity FROM orders')).toEqual([
      { order_id: 'SO1', status: 'FilledStatus', executed_quantity: '100' },
    ]);
    expect(rows('SELECT fill_id, quantity FROM fills')).toEqual([{ fill_id: 'SO1:100', quantity: '100' }]);
    expect(rows('SELECT symbol, quantity FROM positions')).toEqual([{ symbol: AAPL, quantity: '100' }]);
  });

  it('reports the position of a symbol whose order is still in doubt when the broker holds something else', async () => {
    const written = journal();
    written.recordOrder({
      clientOrderId: 'lt-old-8',
      orderId: undefined,
      intentId: undefined,
      strategy: 'trader',
      symbol: AAPL,
      side: 'Buy',
      orderType: 'MO',
      quantity: Quantity.of(100),
      price: undefined,
      status: 'NotReported',
      executedQuantity: Quantity.ZERO,
      executedPrice: undefined,
      message: '',
      createdAt: START - 1000,
      updatedAt: START - 1000,
    });
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    broker.setPosition(AAPL, 100, 10);
    broker.failNext('historyOrders');
    const setup = testRuntime([observer('trader').strategy], { clock, broker, journal: written });
    open.runtimes.push(setup.runtime);

    await setup.runtime.start();

    expect(setup.ofType('reconciliation-mismatch')).toMatchObject([
      { kind: 'position', details: { symbol: 'AAPL.US', expected: '0', reported: '100' } },
    ]);
    expect(rows('SELECT status FROM orders')).toEqual([{ status: 'NotReported' }]);
  });

  it('books a closing fill made while the runtime was down, so the journal position follows and no later start disagrees', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = manualStrategy('trader');
    const before = testRuntime([first.strategy], { clock, broker, journal: journal() });
    await before.runtime.start();
    first.emit((ctx) => ctx.buy(10, { price: 10 }));
    await before.runtime.settled();
    broker.fill('SO1', 10, 10);
    first.emit((ctx) => ctx.close({ price: 12 }));
    await before.runtime.settled();
    // The process dies with the close working; it fills while nothing listens.
    open.journals[0]!.close();
    broker.severPushes();
    broker.fill('SO2', 10, 12);

    const starts: TestRuntime[] = [];
    for (let restart = 0; restart < 2; restart++) {
      const after = testRuntime([observer('trader').strategy], { clock, broker, journal: journal() });
      starts.push(after);
      await after.runtime.start();
      await after.runtime.stop();
      open.journals.at(-1)!.close();
    }

    expect(starts.map((one) => one.ofType('reconciliation-mismatch'))).toEqual([[], []]);
    expect(starts[0]!.ofType('fill').map((event) => [event.fill.quantity.toFixed(), event.position.realizedPnl.toFixed()])).toEqual([
      ['10', '20'],
    ]);
    expect(rows('SELECT symbol, quantity FROM positions')).toEqual([{ symbol: AAPL, quantity: '0' }]);
    expect(rows('SELECT order_id, status FROM orders ORDER BY order_id')).toEqual([
      { order_id: 'SO1', status: 'FilledStatus' },
      { order_id: 'SO2', status: 'FilledStatus' },
    ]);
  });

  it('marks a journaled order the broker never received as missing, without sending it', async () => {
    const written = journal();
    written.recordOrder({
      clientOrderId: 'lt-old-7',
      orderId: undefined,
      intentId: undefined,
      strategy: 'trader',
      symbol: AAPL,
      side: 'Buy',
      orderType: 'MO',
      quantity: Quantity.of(5),
      price: undefined,
      status: 'NotReported',
      executedQuantity: Quantity.ZERO,
      executedPrice: undefined,
      message: '',
      createdAt: START - 1000,
      updatedAt: START - 1000,
    });
    const setup = testRuntime([observer('trader').strategy], { journal: written });
    open.runtimes.push(setup.runtime);

    await setup.runtime.start();

    expect(setup.broker.calls.submitOrder).toBe(0);
    expect(setup.ofType('reconciliation-mismatch')).toMatchObject([{ kind: 'missing-order', details: { clientOrderId: 'lt-old-7' } }]);
    expect(rows(`SELECT status, message FROM orders`)).toEqual([
      { status: 'RejectedStatus', message: 'not found at the broker: the submit never arrived' },
    ]);
  });

  it('reports unknown broker orders before the strategies start', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    broker.placeForeign({
      symbol: AAPL,
      side: 'Buy',
      orderType: 'LO',
      quantity: Quantity.of(3),
      price: Price.of(9),
      timeInForce: 'GTC',
    });
    const watcher = observer('trader');
    const setup = testRuntime([watcher.strategy], { clock, broker, journal: journal() });
    open.runtimes.push(setup.runtime);

    await setup.runtime.start();

    expect(setup.ofType('reconciliation-mismatch')).toMatchObject([
      { kind: 'unknown-order', details: { orderId: 'SO1', status: 'NewStatus', source: 'restart' } },
    ]);
    expect(rows(`SELECT type FROM events WHERE type = 'reconciliation-mismatch'`)).toHaveLength(1);
  });

  it('reports a position the broker holds differently from the journal and takes the broker figure', async () => {
    const written = journal();
    written.savePosition(positionAt(AAPL, Quantity.of(100), Price.of(10)), START - 1000);
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    broker.setPosition(AAPL, 80, 10);
    const watcher = observer('trader');
    const setup = testRuntime([watcher.strategy], { clock, broker, journal: written });
    open.runtimes.push(setup.runtime);

    await setup.runtime.start();

    expect(setup.ofType('reconciliation-mismatch')).toMatchObject([
      { kind: 'position', details: { symbol: 'AAPL.US', expected: '100', reported: '80' } },
    ]);
    expect(watcher.seen.position?.toFixed()).toBe('80');
    expect(rows('SELECT quantity FROM positions')).toEqual([{ quantity: '80' }]);
  });

  it('periodically reports and adopts a position changed outside the runtime', async () => {
    const setup = testRuntime([observer('trader').strategy], { reconcileIntervalMs: 30_000 });
    open.runtimes.push(setup.runtime);
    await setup.runtime.start();

    setup.broker.setPosition(AAPL, 25, 12);
    await setup.clock.advanceByAsync(30_000);

    expect(setup.ofType('reconciliation-mismatch')).toMatchObject([{ kind: 'position', details: { expected: '0', reported: '25' } }]);
    expect(setup.runtime.positions.quantity(AAPL).toFixed()).toBe('25');
  });

  it('reports cash that changed at the broker while no fill happened', async () => {
    const setup = testRuntime([observer('trader').strategy], { reconcileIntervalMs: 30_000 });
    open.runtimes.push(setup.runtime);
    await setup.runtime.start();

    setup.broker.cash = setup.broker.cash.plus(Money.of(5_000, 'USD'));
    await setup.clock.advanceByAsync(30_000);

    expect(setup.ofType('reconciliation-mismatch')).toMatchObject([
      { kind: 'cash', details: { currency: 'USD', expected: '1000000', reported: '1005000' } },
    ]);
  });

  it('does not report cash moved by fills (fees are not in the pushes)', async () => {
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy], { reconcileIntervalMs: 30_000 });
    open.runtimes.push(setup.runtime);
    await setup.runtime.start();

    manual.emit((ctx) => ctx.buy(10, { price: 10 }));
    await setup.runtime.settled();
    setup.broker.fill('SO1', 10, 10);
    setup.broker.cash = setup.broker.cash.minus(Money.of(1, 'USD')); // a fee
    await setup.clock.advanceByAsync(30_000);

    expect(setup.ofType('reconciliation-mismatch')).toEqual([]);
  });
});
