import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backtestData, loadBacktestData } from '../../src/backtest/data.js';
import { parseSymbol } from '../../src/domain/symbol.js';
import { runBacktest } from '../../src/backtest/engine.js';
import { prepareStrategy } from '../../src/strategy/index.js';
import dca from '../../strategies/dca.js';
import { runOnCandles } from '../support/execution/harness.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';

const BUNDLED_DATA = fileURLToPath(new URL('../../backtest-data', import.meta.url));

describe('dca strategy', () => {
  it('buys whole shares worth about `amount` on the first bar and then every `everyDays` days of bar time', async () => {
    const strategy = prepareStrategy(dca, { params: { amount: 1000, everyDays: 2 } });

    // Daily bars: day 0 (1000/100 = 10 shares), day 2 (1000/300 = 3, 100 left), day 4 (1100/2000 < 1 share: carried).
    const run = await runOnCandles([strategy], dailyCandles('SPX.US', [100, 200, 300, 400, 2000, 100]));

    expect(run.orders).toEqual(['Buy 10 SPX.US @bar 0', 'Buy 3 SPX.US @bar 2']);
    expect(run.summary.positions[0]?.quantity.toFixed()).toBe('13');
  });

  it('carries what a purchase cannot spend to the next one, so a share dearer than `amount` is still bought', async () => {
    const strategy = prepareStrategy(dca, { params: { amount: 1000, everyDays: 2 } });

    // 1000 < 1500 on day 0; 2000 buys one on day 2 (500 left); 1500 buys one on day 4.
    const run = await runOnCandles([strategy], dailyCandles('SPX.US', [1500, 1500, 1500, 1500, 1500]));

    expect(run.orders).toEqual(['Buy 1 SPX.US @bar 2', 'Buy 1 SPX.US @bar 4']);
  });

  it('buys whole board lots in Hong Kong, carrying what is less than a lot', async () => {
    const strategy = prepareStrategy(dca, { symbols: ['700.HK'], params: { amount: 50_000, everyDays: 2 } });
    const candles = dailyCandles('700.HK', [300, 300, 300, 300, 300, 300]);
    const data = backtestData([{ symbol: parseSymbol('700.HK'), period: 'day', source: 'test', candles }]);

    const run = await runBacktest({ strategies: [strategy], data, cash: 1_000_000 });

    // Lots of 100: 50,000 / 300 pays for 166 shares, one lot (20,000 carried); then 70,000 buys two (10,000), 60,000 two.
    expect(run.record.fills.map((fill) => fill.quantity.toFixed())).toEqual(['100', '200', '200']);
    expect(run.denials).toEqual({});
  });

  it('keeps one schedule per symbol', async () => {
    const strategy = prepareStrategy(dca, { symbols: ['A.US', 'B.US'], params: { amount: 100, everyDays: 30 } });
    const candles = [...dailyCandles('A.US', [10]), ...dailyCandles('B.US', [20])];

    const run = await runOnCandles([strategy], candles);

    expect(run.orders).toEqual(['Buy 10 A.US @bar 0', 'Buy 5 B.US @bar 1']);
  });

  it('with its defaults on the bundled S&P 500 history, invests nearly every amount instead of skipping most purchases', async () => {
    const strategy = prepareStrategy(dca);
    const data = await loadBacktestData(BUNDLED_DATA, { symbols: strategy.symbols });

    const run = await runBacktest({ strategies: [strategy], data });

    // 244 purchase dates over 2000-01-03 … 2020-04-17, at closes between 677 and 3386: one share every one to
    // four dates. Only what was left over at the end (less than one share) stays uninvested.
    const spent = run.record.fills.reduce((sum, fill) => sum + fill.price.toNumber() * fill.quantity.toNumber(), 0);
    expect(run.summary.orders).toBeGreaterThan(150);
    expect(spent).toBeGreaterThan(244 * 1000 - 3386);
    expect(run.denials).toEqual({});
  });

  it('refuses an amount or a spacing that is not positive', () => {
    expect(() => prepareStrategy(dca, { params: { amount: 0 } }, 'strategies/dca.ts')).toThrow(/strategies\/dca\.ts: param amount/);
    expect(() => prepareStrategy(dca, { params: { everyDays: -1 } }, 'strategies/dca.ts')).toThrow(/param everyDays/);
  });
});
