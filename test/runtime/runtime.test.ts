import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteRows } from '../support/sqlite-rows.js';
import { EMPTY, concat, mergeMap, of, throwError } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSymbol, type OrderIntent } from '../../src/domain/index.js';
import type { Runtime } from '../../src/runtime/index.js';
import { openJournal, type Journal } from '../../src/store/index.js';
import { defineStrategy, prepareStrategy, type IntentDenial } from '../../src/strategy/index.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { runOnCandles } from '../support/execution/harness.js';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { testRuntime } from '../support/execution/runtime-setup.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';
import { Fixed, Money, Price } from '../../src/domain/index.js';

const AAPL = parseSymbol('AAPL.US');
let folder: string;
let journal: Journal | undefined;
let running: Runtime | undefined;

const rows = sqliteRows;

// Buys 1 share on every candle: a strategy that keeps trading while another one fails.
const steadyBuyer = defineStrategy({ name: 'steady', symbols: ['AAPL.US'], onCandle: (_candle, ctx) => ctx.buy(1) });

describe('runtime', () => {
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'runtime-'));
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    journal?.close();
    journal = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it('denies an intent without the broker ever seeing it, and tells the journal, the events and the strategy', async () => {
    const file = join(folder, 'journal.sqlite');
    journal = openJournal(file);
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy], { journal, risk: { maxOrderNotional: Fixed.of(1_000) } });
    running = setup.runtime;
    await setup.runtime.start();
    const denials: IntentDenial[] = [];
    manual.context().denials.subscribe((denial) => denials.push(denial));

    manual.emit((ctx) => ctx.buy(200, { price: 10 }));
    await setup.runtime.settled();

    expect(setup.broker.submitted).toEqual([]);
    expect(setup.broker.calls.estimateBuyLimit).toBe(1);
    expect(denials).toMatchObject([
      { code: 'EXCEEDS_MAX_NOTIONAL', figures: { notional: '2000', limit: '1000', price: '10' }, intent: { kind: 'order', side: 'Buy' } },
    ]);
    expect(setup.ofType('denial')).toHaveLength(1);
    expect(rows(file, 'SELECT strategy, code, figures FROM denials')).toEqual([
      { strategy: 'trader', code: 'EXCEEDS_MAX_NOTIONAL', figures: '{"notional":"2000","limit":"1000","price":"10"}' },
    ]);
    expect(rows(file, 'SELECT COUNT(*) AS n FROM orders')).toEqual([{ n: 0 }]);
  });

  it('denies buys on fresh broker figures: buy power fetched for each intent', async () => {
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy]);
    running = setup.runtime;
    await setup.runtime.start();

    setup.broker.cash = Money.of(500, 'USD');
    manual.emit((ctx) => ctx.buy(100, { price: 10 }));
    await setup.runtime.settled();

    expect(setup.broker.submitted).toEqual([]);
    expect(setup.ofType('denial')).toMatchObject([
      { denial: { code: 'EXCEEDS_BUY_POWER', figures: { required: '1000', available: '500' } } },
    ]);
  });

  it('denies an opening order when the broker cannot give fresh figures, naming the cause', async () => {
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy]);
    running = setup.runtime;
    await setup.runtime.start();
    setup.broker.failNext('estimateBuyLimit');

    manual.emit((ctx) => ctx.buy(1, { price: 10 }));
    await setup.runtime.settled();

    expect(setup.broker.submitted).toEqual([]);
    expect(setup.ofType('denial')).toMatchObject([
      {
        denial: {
          code: 'RISK_DATA_UNAVAILABLE',
          message: 'no fresh account, buy limit, margin ratio from the broker: order not sent (estimateBuyLimit: 503 Service Unavailable)',
        },
      },
    ]);
  });

  it('denies an intent that cannot be an order', async () => {
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy]);
    running = setup.runtime;
    await setup.runtime.start();

    manual.emit((ctx) => ctx.buy(1, { orderType: 'LO' }));
    await setup.runtime.settled();

    expect(setup.ofType('denial')).toMatchObject([{ denial: { code: 'INVALID_INTENT', message: 'LO orders need a price' } }]);
  });

  it('values a market order at the last quote the strategy saw', async () => {
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy], { risk: { maxOrderNotional: Fixed.of(1_000) } });
    running = setup.runtime;
    await setup.runtime.start();
    manual.context().quotes().subscribe();
    setup.marketData.pushQuote({
      symbol: AAPL,
      sequence: 1,
      lastDone: Price.of('101.25'),
      open: Price.of(100),
      high: Price.of(102),
      low: Price.of(99),
      timestamp: setup.clock.now(),
      volume: 1000,
      turnover: Money.of(100_000, 'USD'),
      tradeStatus: 0,
      tradeSession: 'normal',
      currentVolume: 10,
      currentTurnover: Money.of(1012.5, 'USD'),
    });

    manual.emit((ctx) => ctx.buy(10));
    await setup.runtime.settled();

    expect(setup.ofType('denial')).toMatchObject([
      { denial: { code: 'EXCEEDS_MAX_NOTIONAL', figures: { notional: '1012.5', price: '101.25' } } },
    ]);
  });

  it('keeps other strategies trading when one throws in run(), one errors its stream and one throws in onCandle', async () => {
    const throwsInRun = defineStrategy({
      name: 'throws-in-run',
      symbols: ['AAPL.US'],
      run: () => {
        throw new Error('cannot start');
      },
    });
    // Emits a buy and fails in the same breath on the second candle: the queued buy must not go out.
    const errorsStream = defineStrategy({
      name: 'errors-stream',
      symbols: ['AAPL.US'],
      run: (ctx) =>
        ctx.candles().pipe(
          mergeMap((candle) =>
            candle.close === 11
              ? concat(
                  of(ctx.buy(7)),
                  throwError(() => new Error('feed parse error')),
                )
              : EMPTY,
          ),
        ),
    });
    const throwsInCallback = defineStrategy({
      name: 'throws-in-callback',
      symbols: ['AAPL.US'],
      onCandle: (candle, ctx) => {
        if (candle.close === 12) throw new RangeError('index out of range');
        return ctx.buy(3);
      },
    });
    const emitsJunk = defineStrategy({
      name: 'emits-junk',
      symbols: ['AAPL.US'],
      run: () => of({ side: 'Buy' } as unknown as OrderIntent),
    });

    const run = await runOnCandles(
      [
        prepareStrategy(steadyBuyer),
        prepareStrategy(throwsInRun, {}, 'strategies/bad.ts'),
        prepareStrategy(errorsStream),
        prepareStrategy(throwsInCallback),
        prepareStrategy(emitsJunk),
      ],
      dailyCandles('AAPL.US', [10, 11, 12, 13]),
    );

    expect(
      run.events.filter((event) => event.type === 'strategy-failed').map((event) => event.type === 'strategy-failed' && event.error),
    ).toEqual([
      // Where in the user's code (here: this file) and on which bar; the runtime's own refusal has no place.
      expect.stringMatching(
        /^strategy throws-in-run \(strategies\/bad\.ts\) failed at test\/runtime\/runtime\.test\.ts:\d+:\d+: cannot start$/,
      ),
      'strategy emits-junk (strategy emits-junk) failed: emitted an object {"side":"Buy"}, which is not an intent (use ctx.buy/sell/close/target/cancel)',
      expect.stringMatching(
        /^strategy errors-stream \(strategy errors-stream\) failed at test\/runtime\/runtime\.test\.ts:\d+:\d+, on the AAPL\.US day bar of \d{4}-\d\d-\d\d \(index 1\): feed parse error$/,
      ),
      expect.stringMatching(
        /^strategy throws-in-callback \(strategy throws-in-callback\) failed at test\/runtime\/runtime\.test\.ts:\d+:\d+, on the AAPL\.US day bar of \d{4}-\d\d-\d\d \(index 2\): index out of range$/,
      ),
    ]);
    expect(run.orders).toEqual([
      'Buy 1 AAPL.US @bar 0',
      'Buy 3 AAPL.US @bar 0',
      'Buy 1 AAPL.US @bar 1',
      'Buy 3 AAPL.US @bar 1',
      'Buy 1 AAPL.US @bar 2',
      'Buy 1 AAPL.US @bar 3',
    ]);
    expect(run.summary.strategies.map((strategy) => [strategy.name, strategy.state])).toEqual([
      ['steady', 'stopped'],
      ['throws-in-run', 'failed'],
      ['errors-stream', 'failed'],
      ['throws-in-callback', 'failed'],
      ['emits-junk', 'failed'],
    ]);
  });

  it('is busy from the moment a strategy emits until the order is at the venue, and never for a bar without intents', async () => {
    const buyOnSecond = defineStrategy({
      name: 'second',
      symbols: ['AAPL.US'],
      onCandle: (candle, ctx) => (candle.close === 2 ? ctx.buy(5) : undefined),
    });
    const setup = testRuntime([prepareStrategy(buyOnSecond)]);
    running = setup.runtime;
    await setup.runtime.start();
    const [first, second] = dailyCandles('AAPL.US', [1, 2]);

    setup.marketData.pushCandle(first!);
    expect(setup.runtime.busy).toBe(false);
    setup.marketData.pushCandle(second!);
    expect(setup.runtime.busy).toBe(true);
    expect(setup.broker.submitted).toHaveLength(0);
    await setup.runtime.settled();

    expect(setup.runtime.busy).toBe(false);
    expect(setup.broker.submitted).toMatchObject([{ side: 'Buy', orderType: 'MO' }]);
    expect(setup.broker.submitted[0]?.quantity.toFixed()).toBe('5');
  });

  it('resolves close and target against the position that the orders still working will leave', async () => {
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy]);
    running = setup.runtime;
    setup.broker.setPosition(AAPL, 100, 10);
    await setup.runtime.start();

    manual.emit((ctx) => ctx.target(150, { price: 10 }));
    manual.emit((ctx) => ctx.target(-20, { price: 10 }));
    manual.emit((ctx) => ctx.close({ price: 10 }));
    await setup.runtime.settled();

    // 100 held; +50 working after the first, then −170 working (to −20), which the close brings back to 0.
    expect(setup.broker.submitted.map((request) => `${request.side} ${request.quantity.toFixed()}`)).toEqual([
      'Buy 50',
      'Sell 170',
      'Buy 20',
    ]);
  });

  it('cancels only the cancelling strategy’s open orders', async () => {
    const one = manualStrategy('one');
    const two = manualStrategy('two');
    const setup = testRuntime([one.strategy, two.strategy]);
    running = setup.runtime;
    await setup.runtime.start();
    one.emit((ctx) => ctx.buy(1, { price: 9 }));
    two.emit((ctx) => ctx.buy(2, { price: 9 }));
    await setup.runtime.settled();

    one.emit((ctx) => ctx.cancel());
    await setup.runtime.settled();

    expect(setup.broker.cancelled).toEqual(['SO1']);
    expect(setup.broker.order('SO2').status).toBe('NewStatus');
  });

  it('waits for in-flight requests on stop, cancels open orders when asked, and returns a summary', async () => {
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy], { requestTimeoutMs: 1_000, lookupAttempts: 1 });
    await setup.runtime.start();
    setup.broker.fillPrice = 10;
    manual.context().candles().subscribe(); // market orders are valued at the last price the strategy's streams saw
    setup.marketData.pushCandle(dailyCandles('AAPL.US', [12])[0]!);
    manual.emit((ctx) => ctx.buy(10));
    manual.emit((ctx) => ctx.buy(5, { price: 9 }));
    await setup.runtime.settled();
    setup.broker.planSubmits('hang');
    manual.emit((ctx) => ctx.buy(1, { price: 9 }));
    // Its risk figures come first; the stop finds its submit sent (an intent still deciding places nothing).
    while (setup.broker.submitted.length < 3) await new Promise((resolve) => setImmediate(resolve));

    let stopped = false;
    const stopping = setup.runtime.stop({ cancelOpenOrders: true }).then((summary) => {
      stopped = true;
      return summary;
    });
    await setup.clock.advanceByAsync(999);
    expect(stopped).toBe(false);
    await setup.clock.advanceByAsync(1);
    const summary = await stopping;

    expect(setup.broker.cancelled).toEqual(['SO2', 'SO3']);
    expect(summary).toMatchObject({ intents: 3, orders: 3, fills: 1, denials: 0 });
    expect(
      summary.positions.map((position) => [
        position.symbol,
        position.quantity.toFixed(),
        position.lastPrice?.toFixed(),
        position.unrealizedPnl?.toFixed(),
      ]),
    ).toEqual([['AAPL.US', '10', '12', '20']]);
    expect(summary.pnl).toMatchObject([{ currency: 'USD' }]);
    let completed = false;
    setup.runtime.events.subscribe({ complete: () => (completed = true) });
    expect(completed).toBe(true);
  });

  it('journals a whole run: intents, orders, state changes, fills and positions', async () => {
    const file = join(folder, 'journal.sqlite');
    journal = openJournal(file);

    const run = await runOnCandles(
      [prepareStrategy(smaCrossover, { symbols: ['SPX.US'], params: { fast: 2, slow: 4 } })],
      dailyCandles('SPX.US', [9, 8, 7, 6, 5, 6, 7, 8, 9, 8, 5, 4, 3]),
      { journal },
    );

    expect(run.orders).toHaveLength(2);
    expect(rows(file, 'SELECT kind, symbol, quantity, reason FROM intents ORDER BY id')).toEqual([
      { kind: 'order', symbol: 'SPX.US', quantity: '100', reason: 'fast SMA crossed above slow' },
      { kind: 'close', symbol: 'SPX.US', quantity: null, reason: 'fast SMA crossed below slow' },
    ]);
    expect(
      rows(file, 'SELECT side, order_type, quantity, status, executed_quantity, executed_price FROM orders ORDER BY created_at'),
    ).toEqual([
      { side: 'Buy', order_type: 'MO', quantity: '100', status: 'FilledStatus', executed_quantity: '100', executed_price: '7' },
      { side: 'Sell', order_type: 'MO', quantity: '100', status: 'FilledStatus', executed_quantity: '100', executed_price: '5' },
    ]);
    expect(rows(file, 'SELECT from_status, to_status, source FROM order_states ORDER BY id')).toEqual([
      { from_status: 'NotReported', to_status: 'NewStatus', source: 'push' },
      { from_status: 'NewStatus', to_status: 'FilledStatus', source: 'push' },
      { from_status: 'NotReported', to_status: 'NewStatus', source: 'push' },
      { from_status: 'NewStatus', to_status: 'FilledStatus', source: 'push' },
    ]);
    expect(rows(file, 'SELECT side, quantity, price FROM fills ORDER BY time')).toEqual([
      { side: 'Buy', quantity: '100', price: '7' },
      { side: 'Sell', quantity: '100', price: '5' },
    ]);
    expect(rows(file, 'SELECT symbol, quantity, realized_pnl FROM positions')).toEqual([
      { symbol: 'SPX.US', quantity: '0', realized_pnl: '-200' },
    ]);
    expect(rows(file, 'SELECT type FROM events ORDER BY id')).toEqual([{ type: 'started' }, { type: 'stopped' }]);
  });

  it('halts new exposure after the daily loss limit but still lets a position be closed', async () => {
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy], { risk: { dailyLossLimit: Fixed.of(1_000) } });
    running = setup.runtime;
    setup.broker.setPosition(AAPL, 100, 10);
    await setup.runtime.start();

    setup.broker.cash = setup.broker.cash.minus(Money.of(1_500, 'USD'));
    manual.emit((ctx) => ctx.buy(1, { price: 10 }));
    manual.emit((ctx) => ctx.close({ price: 10 }));
    await setup.runtime.settled();

    expect(setup.ofType('denial')).toMatchObject([{ denial: { code: 'DAILY_LOSS_HALT', figures: { loss: '1500', limit: '1000' } } }]);
    expect(setup.broker.submitted.map((request) => `${request.side} ${request.quantity.toFixed()}`)).toEqual(['Sell 100']);
  });
});
