import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../src/backtest/metrics/compute.js';
import { pairTrades } from '../../src/backtest/metrics/trades.js';
import { InvalidInputError } from '../../src/domain/errors.js';
import { candlesOf, type CandleColumns } from '../../src/feeds/history/candle-columns.js';
import { parseSymbol } from '../../src/domain/symbol.js';
import { defineStrategy } from '../../src/strategy/define.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import { AAPL, backtest, dayBar, dayTime, localTime, minuteBar, scripted } from '../support/backtest/scripted.js';

const MSFT = parseSymbol('MSFT.US');
/** The line of this file that throws in the first failure test below. */
const THROW_LINE =
  readFileSync(fileURLToPath(import.meta.url), 'utf8')
    .split('\n')
    .findIndex((line) => line.trim() === "throw new Error('boom on bar 2');") + 1;
const A = [
  dayBar(AAPL, '2024-01-02', 10, 11, 9, 10.5),
  dayBar(AAPL, '2024-01-03', 10.6, 11, 10, 10.8),
  dayBar(AAPL, '2024-01-04', 10.9, 11, 10, 10.2),
];
const M = [
  dayBar(MSFT, '2024-01-02', 50, 51, 49, 50.5),
  dayBar(MSFT, '2024-01-03', 50.6, 52, 50, 51),
  dayBar(MSFT, '2024-01-04', 51.5, 52, 51, 51.2),
];

describe('backtest engine', () => {
  it("shows several symbols' bars in time order, and matches every bar of a time before any strategy sees one", async () => {
    const seen: string[] = [];
    // Decides on AAPL's first bar to buy MSFT below a limit of 60: MSFT's bar of the same day was already
    // processed, so the order fills at MSFT's next open (50.6), never at the open (50) of a bar that started
    // before the decision.
    const strategy = scripted([AAPL, MSFT], {
      0: (ctx, candle) => {
        seen.push(`${candle.symbol}@${candle.close}`);
        return ctx.buy(10, { symbol: MSFT, price: 60 });
      },
      1: (_ctx, candle) => void seen.push(`${candle.symbol}@${candle.close}`),
      2: (_ctx, candle) => void seen.push(`${candle.symbol}@${candle.close}`),
    });

    const run = await backtest([A, M], [strategy]);

    expect(seen).toEqual(['AAPL.US@10.5', 'MSFT.US@50.5', 'AAPL.US@10.8']);
    expect(run.record.fills.map((fill) => [fill.symbol, fill.price.toFixed(), fill.time])).toEqual([
      ['MSFT.US', '50.6', dayTime(MSFT, '2024-01-03')],
    ]);
    expect(Array.from(run.record.equity.times)).toEqual(A.map((bar) => bar.time));
    // Day 2: 1,000,000 − 506 + 10 × 51 = 1,000,004; day 3: + 10 × (51.2 − 51).
    expect(Array.from(run.record.equity.equity)).toEqual([1_000_000, 1_000_004, 1_000_006]);
  });

  it('ends the equity curve at the exact final equity, not the float sum the marks drifted to', async () => {
    // Buy 7 at the open of 10.01, then closes 10.01 and 10.02: 1,000,000 − 70.07 + 70.14 = 1,000,000.07. The
    // per-bar float marking (7 × 10.01 + 7 × (10.02 − 10.01)) made it 1,000,000.0700000001.
    const bars = [
      dayBar(AAPL, '2024-01-02', 10, 10.1, 9.9, 10),
      dayBar(AAPL, '2024-01-03', 10.01, 10.1, 9.9, 10.01),
      dayBar(AAPL, '2024-01-04', 10.01, 10.1, 9.9, 10.02),
    ];
    const run = await backtest([bars], [scripted([AAPL], { 0: (ctx) => ctx.buy(7) })]);

    expect(run.record.finalEquity?.toString()).toBe('1000000.07');
    const curve = run.record.equity.equity;
    expect(curve[curve.length - 1]).toBe(1_000_000.07);
    const metrics = computeMetrics({ record: run.record, ledger: pairTrades(run.record.fills), barsHeld: [], formatTime: String });
    expect(metrics.finalEquity).toBe(1_000_000.07);
    // 0.07 / 1,000,000, from the exact difference (not 1,000,000.07 / 1,000,000 − 1, which carries the float's noise).
    expect(metrics.totalReturn).toBe(0.07 / 1_000_000);
  });

  it('waits for an intent that needs the broker asynchronously (a cancel) and goes on with the very next bar', async () => {
    const seen: string[] = [];
    // A cancel waits for the broker; it lands on AAPL's second bar, in the middle of a bar time with MSFT
    // still to be shown. The walk must pause there and resume with MSFT's second bar, skipping or
    // repeating nothing.
    const strategy = scripted([AAPL, MSFT], {
      0: (ctx, candle) => {
        seen.push(`${candle.symbol}@${candle.close}`);
        return ctx.buy(10, { price: 5, timeInForce: 'GTC' });
      },
      1: (_ctx, candle) => void seen.push(`${candle.symbol}@${candle.close}`),
      2: (ctx, candle) => {
        seen.push(`${candle.symbol}@${candle.close}`);
        return ctx.cancel();
      },
      3: (ctx, candle) => {
        seen.push(`${candle.symbol}@${candle.close}`);
        return ctx.buy(1, { symbol: MSFT });
      },
      4: (_ctx, candle) => void seen.push(`${candle.symbol}@${candle.close}`),
      5: (_ctx, candle) => void seen.push(`${candle.symbol}@${candle.close}`),
    });

    const run = await backtest([A, M], [strategy]);

    expect(seen).toEqual(['AAPL.US@10.5', 'MSFT.US@50.5', 'AAPL.US@10.8', 'MSFT.US@51', 'AAPL.US@10.2', 'MSFT.US@51.2']);
    expect(run.intents.map((intent) => [intent.time, intent.intent.kind])).toEqual([
      [localTime(AAPL, '2024-01-02 16:00'), 'order'],
      [localTime(AAPL, '2024-01-03 16:00'), 'cancel'],
      [localTime(MSFT, '2024-01-03 16:00'), 'order'],
    ]);
    expect(run.record.fills.map((fill) => [fill.symbol, fill.price.toFixed(), fill.time])).toEqual([
      ['MSFT.US', '51.5', dayTime(MSFT, '2024-01-04')],
    ]);
    expect(run.summary).toMatchObject({ intents: 3, orders: 2, fills: 1, openOrders: 0 });
    expect(Array.from(run.record.equity.times)).toEqual(A.map((bar) => bar.time));
  });

  it('lists every intent in decision order with the close instant it was decided at', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(5), 2: (ctx) => [ctx.close(), ctx.buy(1)] });

    const run = await backtest([A], [strategy]);

    expect(run.intents.map((intent) => [intent.time, intent.intent.kind])).toEqual([
      [localTime(AAPL, '2024-01-02 16:00'), 'order'],
      [localTime(AAPL, '2024-01-04 16:00'), 'close'],
      [localTime(AAPL, '2024-01-04 16:00'), 'order'],
    ]);
    expect(run.summary).toMatchObject({ intents: 3, orders: 3, fills: 1, openOrders: 2 });
  });

  it("shows a daily strategy daily bars built from hourly data, and fills its market order at the next hour's open", async () => {
    const hours = ['09:30', '10:30', '11:30', '12:30', '13:30', '14:30', '15:30'];
    const day1 = hours.map((time, index) =>
      minuteBar(AAPL, `2024-01-02 ${time}`, 100 + index, 101 + index, 99 + index, 100.5 + index, '60m'),
    );
    const day2 = hours.map((time, index) =>
      minuteBar(AAPL, `2024-01-03 ${time}`, 110 + index, 111 + index, 109 + index, 110.5 + index, '60m'),
    );
    const closes: number[] = [];
    const strategy = prepareStrategy(
      defineStrategy({
        name: 'daily',
        symbols: [AAPL],
        period: 'day',
        onCandle: (candle, ctx) => {
          closes.push(candle.close);
          return closes.length === 1 ? ctx.buy(1) : undefined;
        },
      }),
    );

    const run = await backtest([[...day1, ...day2]], [strategy]);

    expect(closes).toEqual([106.5, 116.5]);
    expect(run.record.period).toBe('60m');
    expect(run.record.fills.map((fill) => [fill.price.toFixed(), fill.time])).toEqual([['110', day2[0]!.time]]);
  });

  it('stops the run at the bar its only strategy threw on, naming the line that threw and the bar', async () => {
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.buy(1),
      1: () => {
        throw new Error('boom on bar 2');
      },
      2: (ctx) => ctx.buy(1),
    });

    const run = await backtest([A], [strategy]);

    expect(run.intents).toHaveLength(1);
    expect(run.summary.strategies).toMatchObject([
      { name: 'scripted', source: 'scripted strategy', state: 'failed', error: 'boom on bar 2' },
    ]);
    expect(run.record.failures).toEqual([
      {
        strategy: 'scripted',
        source: 'scripted strategy',
        failure: {
          error: 'boom on bar 2',
          // The strategy is defined in code, so its file is the first frame outside the runtime: this one.
          location: { file: relative(process.cwd(), fileURLToPath(import.meta.url)), line: THROW_LINE, column: 15 },
          bar: { symbol: AAPL, period: 'day', time: dayTime(AAPL, '2024-01-03'), index: 1 },
          stack: expect.stringContaining('boom on bar 2'),
        },
      },
    ]);
    // The walk stops at the failing bar: the record covers the bars before it.
    expect(Array.from(run.record.equity.times)).toEqual([dayTime(AAPL, '2024-01-02')]);
    expect(candlesOf(run.record.bars.get(AAPL) as CandleColumns)).toEqual(A.slice(0, 1));
  });

  it('runs to the end while another strategy still runs, and keeps the failed one in the record', async () => {
    const failing = scripted([AAPL], {
      0: () => {
        throw new Error('boom at once');
      },
    });
    const steady = scripted([AAPL], { 2: (ctx) => ctx.buy(1) });

    const run = await backtest([A], [failing, steady]);

    expect(run.record.failures?.map((one) => [one.strategy, one.failure.error, one.failure.bar?.index])).toEqual([
      ['scripted', 'boom at once', 0],
    ]);
    expect(run.record.equity.times).toHaveLength(3);
    expect(run.intents).toHaveLength(1);
  });

  it("refuses to start when a strategy's symbols have no data or its period is finer than the data", async () => {
    await expect(backtest([A], [scripted([MSFT], {})])).rejects.toThrow(InvalidInputError);
    await expect(backtest([A], [scripted([MSFT], {})])).rejects.toThrow('no candle data for MSFT.US (the data has AAPL.US)');
    await expect(backtest([A], [scripted([AAPL], {}, '5m')])).rejects.toThrow("5m bars are finer than the data's day bars");
  });

  it('reports progress in bars done out of the total', async () => {
    const updates: [number, number][] = [];

    await backtest([A, M], [scripted([AAPL], {})], { progress: { every: 2, update: (done, total) => updates.push([done, total]) } });

    expect(updates).toEqual([
      [2, 6],
      [4, 6],
      [6, 6],
      [6, 6],
    ]);
  });
});
