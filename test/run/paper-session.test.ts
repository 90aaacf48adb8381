import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { join } from 'node:path';
import { controlledStrategy } from '../support/run/controlled-strategy.js';
import { removeTempFolders, startPaperHarness, tempFolder, type PaperHarness } from '../support/run/paper-harness.js';
import { Fixed } from '../../src/domain/index.js';

const SMA = prepareStrategy(smaCrossover, { symbols: [AAPL], params: { fast: 3, slow: 6, quantity: 10 } });
let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

interface OrderRow {
  client_order_id: string;
  order_id: string | null;
  side: string;
  quantity: string;
  status: string;
  executed_quantity: string;
}
interface FillRow {
  order_id: string;
  quantity: string;
  price: string;
}

describe('paper session: sma-crossover against the simulator over the real protocol', () => {
  it("places orders whose fills, journal rows and final position are exactly the simulator's", async () => {
    harness = await startPaperHarness({ strategies: [SMA], candles: [wavingDays(60)] });

    await harness.stepAll();

    const venueOrders = harness.sim.venue.orders();
    const executions = harness.sim.venue.executions();
    expect(venueOrders.length).toBeGreaterThanOrEqual(4);
    expect(venueOrders.every((order) => order.status === 'FilledStatus')).toBe(true);
    const journalOrders = harness.journal<OrderRow>('SELECT * FROM orders ORDER BY created_at, client_order_id');
    expect(
      journalOrders.map((row) => [row.client_order_id, row.order_id, row.side, row.quantity, row.status, row.executed_quantity]),
    ).toEqual(
      venueOrders.map((order) => [
        order.remark,
        order.orderId,
        order.side,
        order.quantity.toFixed(),
        order.status,
        order.executedQuantity.toFixed(),
      ]),
    );
    const journalFills = harness.journal<FillRow>('SELECT order_id, quantity, price FROM fills ORDER BY time, order_id');
    expect(journalFills.map((row) => [row.order_id, row.quantity, row.price])).toEqual(
      executions.map((fill) => [fill.orderId, fill.quantity.toFixed(), fill.price.toFixed()]),
    );
    const venuePosition = harness.sim.venue.positions([AAPL])[0]?.quantity ?? new Decimal(0);
    expect(harness.session.positions.quantity(AAPL).toFixed()).toBe(venuePosition.toFixed());
    const [journalPosition] = harness.journal<{ quantity: string }>(`SELECT quantity FROM positions WHERE symbol = '${AAPL}'`);
    expect(journalPosition?.quantity).toBe(venuePosition.toFixed());

    const report = await harness.stop();
    expect([report.summary.orders, report.summary.fills, report.summary.denials]).toEqual([venueOrders.length, executions.length, 0]);
    expect(report.findings).toEqual([]);
  });

  it('never lets a denied intent reach the simulator', async () => {
    harness = await startPaperHarness({ strategies: [SMA], candles: [wavingDays(40)], risk: { maxOrderNotional: Fixed.of(500) } });

    await harness.stepAll();

    expect(harness.sim.venue.orders()).toEqual([]);
    const denials = harness.ofType('denial');
    expect(denials.length).toBeGreaterThan(0);
    expect(new Set(denials.map((event) => event.denial.code))).toEqual(new Set(['EXCEEDS_MAX_NOTIONAL']));
    const rows = harness.journal<{ code: string }>('SELECT code FROM denials');
    expect(rows.map((row) => row.code)).toEqual(denials.map((event) => event.denial.code));
    expect(harness.journal('SELECT * FROM orders')).toEqual([]);
  });

  it('names a sell while flat SHORT_SELLING_NOT_ALLOWED and a symbol the simulator does not know UNKNOWN_SYMBOL, with the cause', async () => {
    const control = controlledStrategy(AAPL);
    harness = await startPaperHarness({ strategies: [control.strategy], candles: [wavingDays(20)] });
    await harness.step();

    control.emit((ctx) => ctx.sell(10));
    control.emit((ctx) => ctx.buy(10, { symbol: 'NOPE.US' }));
    await harness.settle();

    expect(harness.ofType('denial').map((event) => [event.denial.code, event.denial.message])).toEqual([
      ['SHORT_SELLING_NOT_ALLOWED', 'sell 10 AAPL.US: no position, and short selling is not allowed'],
      ['UNKNOWN_SYMBOL', 'the broker does not know NOPE.US: unknown symbol: no market data for NOPE.US yet'],
    ]);
    expect(harness.sim.venue.orders()).toEqual([]);
  });

  it('names a sell while flat EXCEEDS_SELL_LIMIT when the paper account may sell short but has no margin (--short)', async () => {
    const control = controlledStrategy(AAPL);
    harness = await startPaperHarness({
      strategies: [control.strategy],
      candles: [wavingDays(20)],
      cash: 0,
      venue: { shortSelling: true },
    });
    await harness.step();

    control.emit((ctx) => ctx.sell(10));
    await harness.settle();

    expect(harness.ofType('denial').map((event) => [event.denial.code, event.denial.message])).toEqual([
      [
        'EXCEEDS_SELL_LIMIT',
        'sell 10 AAPL.US: the broker lets you sell at most 0 (position 0): short selling is on, but no margin is left for it (buy power 0)',
      ],
    ]);
  });

  it('resumes the paper account and the replay where the previous run stopped, when the journal and account files are kept', async () => {
    const folder = await tempFolder();
    const files = { journalFile: join(folder, 'journal.sqlite'), stateFile: join(folder, 'journal.account.sqlite') };
    const first = controlledStrategy(AAPL);
    harness = await startPaperHarness({ strategies: [first.strategy], candles: [wavingDays(20)], ...files });
    await harness.step();
    first.emit((ctx) => ctx.buy(10));
    await harness.settle();
    await harness.step(3);
    const stoppedAt = harness.sim.replay.marketTime;
    await harness.stop();

    harness = await startPaperHarness({ strategies: [controlledStrategy(AAPL).strategy], candles: [wavingDays(20)], ...files });

    expect(harness.sim.replay.marketTime).toBe(stoppedAt);
    expect(harness.session.positions.quantity(AAPL).toFixed()).toBe('10');
    expect(harness.sim.venue.orders().map((order) => order.status)).toEqual(['FilledStatus']);
    expect(harness.session.report().findings).toEqual([]);
  });

  it('refuses to resume a kept paper account with another --from, and resumes it at its own replay without one', async () => {
    const folder = await tempFolder();
    const files = { journalFile: join(folder, 'journal.sqlite'), stateFile: join(folder, 'journal.account.sqlite') };
    const candles = [wavingDays(20)];
    harness = await startPaperHarness({ strategies: [controlledStrategy(AAPL).strategy], candles, from: '2024-01-08', ...files });
    await harness.step(3);
    const stoppedAt = harness.sim.replay.marketTime;
    await harness.stop();
    harness = undefined;

    const other = startPaperHarness({ strategies: [controlledStrategy(AAPL).strategy], candles, from: '2024-01-15', ...files });

    await expect(other).rejects.toThrow(
      `--from 2024-01-15: the paper account in ${files.stateFile} belongs to a replay that started at 2024-01-08, and resuming it goes on ` +
        `where it stopped; leave out --from to resume it, or start afresh at 2024-01-15 with another --journal (or delete ${files.journalFile} and ${files.stateFile})`,
    );
    await expect(other).rejects.toMatchObject({ code: 'INVALID_INPUT', field: '--from' });
    harness = await startPaperHarness({ strategies: [controlledStrategy(AAPL).strategy], candles, ...files });
    expect(harness.sim.replay.marketTime).toBe(stoppedAt);
    await harness.stop();
    harness = undefined;
    // Resuming without --from kept the account on its replay: another --from is still refused, its own is not.
    await expect(
      startPaperHarness({ strategies: [controlledStrategy(AAPL).strategy], candles, from: '2024-01-15', ...files }),
    ).rejects.toThrow(/belongs to a replay that started at 2024-01-08/);
    harness = await startPaperHarness({ strategies: [controlledStrategy(AAPL).strategy], candles, from: '2024-01-08', ...files });
    expect(harness.sim.replay.marketTime).toBe(stoppedAt);
  });
});
