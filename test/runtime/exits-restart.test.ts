// Exits held across a restart: a runtime with a real SQLite journal journals the exits it holds, a second
// runtime on the same journal (after a crash, or a clean stop) re-arms those of positions still open once
// reconciliation is done, and drops those whose position closed while it was down. Virtual time, the stub
// broker (a venue that kept running while the process was gone) and bars pushed by hand.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import type { ExitSpec, OrderIntent } from '../../src/domain/index.js';
import { createLogger } from '../../src/log/logger.js';
import type { Runtime, StopOptions } from '../../src/runtime/index.js';
import { openJournal, type Journal } from '../../src/store/index.js';
import type { StrategyContext } from '../../src/strategy/index.js';
import { AAPL, dayBar } from '../support/backtest/scripted.js';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { START, testRuntime, type TestRuntime } from '../support/execution/runtime-setup.js';
import { StubBroker } from '../support/execution/stub-broker.js';
import { sqliteRows } from '../support/sqlite-rows.js';

let folder: string;
let file: string;
const journals: Journal[] = [];
const running: Runtime[] = [];

interface Run {
  readonly setup: TestRuntime;
  readonly journal: Journal;
  readonly logs: string[];
  emit(build: (ctx: StrategyContext<Record<string, never>>) => OrderIntent): Promise<void>;
  /** Buys 100 at a limit of 10 with these exits, and the venue fills the order. */
  enter(exits: ExitSpec): Promise<void>;
  /** A closed daily bar of AAPL (January 2024), then everything it caused. */
  bar(day: string, open: number, high: number, low: number, close: number): Promise<void>;
  /** The process dies: no stop, no flush; its journal handle and its push stream are gone. */
  crash(): void;
  /** A clean stop (Ctrl-C). */
  stop(options?: StopOptions): Promise<void>;
}

async function startRun(clock: VirtualClock, broker: StubBroker, strategy = 'trader'): Promise<Run> {
  const logs: string[] = [];
  const logger = createLogger({ destination: { write: (line: string) => logs.push((JSON.parse(line) as { msg: string }).msg) } });
  const manual = manualStrategy(strategy);
  const journal = openJournal(file);
  journals.push(journal);
  const setup = testRuntime([manual.strategy], { clock, broker, journal, logger });
  running.push(setup.runtime);
  await setup.runtime.start();
  return {
    setup,
    journal,
    logs,
    async emit(build) {
      manual.emit(build);
      await setup.runtime.settled();
    },
    async enter(exits) {
      manual.emit((ctx) => ctx.buy(100, { price: 10, tag: 'entry', exits }));
      await setup.runtime.settled();
      broker.fill(broker.allOrders().at(-1)!.orderId, 100, 10);
      await setup.runtime.settled();
    },
    async bar(day, open, high, low, close) {
      setup.marketData.pushCandle(dayBar(AAPL, `2024-01-${day}`, open, high, low, close));
      await setup.runtime.settled();
    },
    crash() {
      running.splice(running.indexOf(setup.runtime), 1);
      journal.close();
      broker.severPushes();
    },
    async stop(options) {
      running.splice(running.indexOf(setup.runtime), 1);
      await setup.runtime.stop(options);
      journal.close();
    },
  };
}

const exitRows = (): unknown[] => sqliteRows(file, 'SELECT strategy, symbol, exits, direction, best, fired FROM exits');
const submitted = (run: Run): string[][] =>
  run.setup.ofType('order-submitted').map((event) => [event.request.side, event.request.quantity.toFixed(), event.tag ?? '-']);

describe('exits across a restart', () => {
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'exits-restart-'));
    file = join(folder, 'journal.sqlite');
  });
  afterEach(async () => {
    for (const runtime of running.splice(0)) await runtime.stop();
    for (const journal of journals.splice(0)) journal.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('after a crash, re-arms the stop-loss of the open position before any bar and closes by it after the restart', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = await startRun(clock, broker);
    await first.bar('02', 10, 10.2, 9.9, 10);
    await first.enter({ stopLoss: { percent: 0.05 } });
    await first.bar('03', 10, 10.3, 9.8, 10.1);
    expect(exitRows()).toEqual([
      { strategy: 'trader', symbol: AAPL, exits: '{"stopLoss":{"percent":0.05}}', direction: 'long', best: '10', fired: null },
    ]);
    first.crash();

    clock.advanceBy(3_600_000);
    const second = await startRun(clock, broker);
    expect(second.logs).toContain('re-armed exits of trader on AAPL.US (long 100, best price 10)');
    broker.fillPrice = 9.6;
    await second.bar('04', 10, 10.1, 9.4, 9.6);
    await second.bar('05', 9.6, 9.7, 9.5, 9.6);

    expect(submitted(second)).toEqual([['Sell', '100', 'stop-loss']]);
    expect(second.setup.runtime.positions.quantity(AAPL).isZero()).toBe(true);
    expect(exitRows()).toEqual([]);
    expect(second.logs).toContain('exits of trader on AAPL.US dropped: the position closed');
    expect(sqliteRows(file, `SELECT type FROM events WHERE type LIKE 'exits-%'`)).toEqual([{ type: 'exits-rearmed' }]);
  });

  it("keeps the trailing stop's best price over a clean restart, written only when it moves", async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = await startRun(clock, broker);
    await first.bar('02', 10, 10.2, 9.9, 10);
    await first.enter({ trailingStop: { percent: 0.1 } });
    await first.bar('03', 10, 12, 10, 11.8);
    const written = sqliteRows<{ best: string; updated_at: number }>(file, 'SELECT best, updated_at FROM exits');
    clock.advanceBy(60_000);
    await first.bar('04', 11.8, 11.9, 11.2, 11.5); // no new high: nothing written
    expect(sqliteRows(file, 'SELECT best, updated_at FROM exits')).toEqual(written);
    expect(written).toMatchObject([{ best: '12' }]);
    await first.stop();

    const second = await startRun(clock, broker);
    await second.bar('05', 11.5, 11.6, 10.9, 11); // 12 × 0.9 = 10.8 not reached (from the cost, 9 would be)
    expect(submitted(second)).toEqual([]);
    await second.bar('08', 11, 11.1, 10.7, 10.8);

    expect(submitted(second)).toEqual([['Sell', '100', 'trailing-stop']]);
    expect(exitRows()).toMatchObject([{ best: '12', fired: 'trailing-stop' }]);
  });

  it('drops and logs the exits of a position whose stop-loss close filled while the run was down', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = await startRun(clock, broker);
    await first.bar('02', 10, 10.2, 9.9, 10);
    await first.enter({ stopLoss: { percent: 0.05 } });
    await first.bar('03', 10, 10.3, 9.8, 10.1);
    broker.planSubmits('hang');
    first.setup.marketData.pushCandle(dayBar(AAPL, '2024-01-04', 10, 10.1, 9.4, 9.6)); // the close is sent, no answer
    await clock.advanceByAsync(0);
    expect(exitRows()).toMatchObject([{ direction: 'long', fired: 'stop-loss' }]);
    first.crash();
    const close = broker.allOrders().at(-1)!;
    broker.fill(close.orderId, 100, 9.5);

    const second = await startRun(clock, broker);
    await second.bar('05', 9.5, 9.6, 8, 8.2);

    expect(second.logs).toContain('dropped the exits of trader on AAPL.US: the position closed while the run was down');
    expect(exitRows()).toEqual([]);
    expect(sqliteRows(file, `SELECT type, detail FROM events WHERE type LIKE 'exits-%'`)).toEqual([
      {
        type: 'exits-dropped',
        detail: JSON.stringify({
          strategy: 'trader',
          symbol: AAPL,
          exits: { stopLoss: { percent: 0.05 } },
          reason: 'the position closed while the run was down',
        }),
      },
    ]);
    expect(submitted(second)).toEqual([]);
    expect(broker.calls.submitOrder).toBe(2);
  });

  it('closes again after a restart when a stop fired but its close never filled: a triggered stop stays triggered', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = await startRun(clock, broker);
    await first.bar('02', 10, 10.2, 9.9, 10);
    await first.enter({ stopLoss: { percent: 0.05 } });
    await first.bar('03', 10, 10.3, 9.8, 10.1);
    broker.planSubmits('hang');
    first.setup.marketData.pushCandle(dayBar(AAPL, '2024-01-04', 10, 10.1, 9.4, 9.6));
    await clock.advanceByAsync(0);
    first.crash();
    broker.cancel(broker.allOrders().at(-1)!.orderId);

    const second = await startRun(clock, broker);
    expect(second.logs).toContain(
      're-armed exits of trader on AAPL.US (long 100, best price 10.3; stop-loss reached before the restart: closing again)',
    );
    await second.bar('05', 9.8, 10.2, 9.7, 10.1); // back above the stop

    expect(submitted(second)).toEqual([['Sell', '100', 'stop-loss']]);
  });

  it('forgets the exits of a position flattened as the run stops, so the next start has nothing to drop', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = await startRun(clock, broker);
    await first.bar('02', 10, 10.2, 9.9, 10);
    await first.enter({ stopLoss: { percent: 0.05 } });
    await first.bar('03', 10, 10.3, 9.8, 10.1);
    broker.fillPrice = 10.1;

    await first.stop({ flatten: true });

    expect(exitRows()).toEqual([]);
    expect(first.logs).toContain('dropped the exits of trader on AAPL.US: the position closed as the run stopped');
    const second = await startRun(clock, broker);
    expect(second.logs.filter((line) => line.includes('exits'))).toEqual([]);
  });

  it('re-arms the exits of an entry still working at the restart, and applies them once it fills', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = await startRun(clock, broker);
    await first.bar('02', 10, 10.2, 9.9, 10);
    await first.emit((ctx) => ctx.buy(100, { price: 9.9, exits: { stopLoss: { percent: 0.05 } } }));
    expect(exitRows()).toMatchObject([{ direction: null, best: null }]);
    first.crash();

    const second = await startRun(clock, broker);
    expect(second.logs).toContain('re-armed exits of trader on AAPL.US, waiting for its entry to fill');
    broker.fill(broker.allOrders()[0]!.orderId, 100, 9.9);
    await second.bar('03', 10, 10.1, 9.8, 10);
    expect(exitRows()).toMatchObject([{ direction: 'long', best: '9.9' }]);
    await second.bar('04', 10, 10.1, 9.3, 9.5); // 9.9 × 0.95 = 9.405

    expect(submitted(second)).toEqual([['Sell', '100', 'stop-loss']]);
  });

  it('drops the exits of an entry that was cancelled while the run was down, and those of a denied entry at once', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = await startRun(clock, broker);
    await first.bar('02', 10, 10.2, 9.9, 10);
    await first.emit((ctx) => ctx.buy(100, { price: 9.9, exits: { stopLoss: { percent: 0.05 } } }));
    first.crash();
    broker.cancel(broker.allOrders()[0]!.orderId);

    const second = await startRun(clock, broker);
    expect(second.logs).toContain('dropped the exits of trader on AAPL.US: its entry did not fill and no order of it is working');
    expect(exitRows()).toEqual([]);
    broker.planSubmits('refuse');
    await second.emit((ctx) => ctx.buy(100, { price: 9.9, exits: { stopLoss: { percent: 0.05 } } }));

    expect(second.setup.ofType('denial')).toHaveLength(1);
    expect(exitRows()).toEqual([]);
  });

  it('leaves the exits of a strategy that is not in the restarted run in the journal, says so, and sends nothing for them', async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const first = await startRun(clock, broker);
    await first.bar('02', 10, 10.2, 9.9, 10);
    await first.enter({ stopLoss: { percent: 0.05 } });
    first.crash();

    const other = await startRun(clock, broker, 'other');
    await other.bar('03', 10, 10.1, 9, 9.2);

    expect(other.logs).toContain(
      'exits of trader on AAPL.US not re-armed: that strategy is not in this run (they stay in the journal for a run that has it)',
    );
    expect(submitted(other)).toEqual([]);
    expect(exitRows()).toMatchObject([{ strategy: 'trader', direction: null }]);
  });
});
