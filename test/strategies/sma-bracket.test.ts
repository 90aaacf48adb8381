import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestData } from '../../src/backtest/data.js';
import { runBacktest } from '../../src/backtest/engine.js';
import { buildResult } from '../../src/backtest/report/result-builder.js';
import { prepareStrategy } from '../../src/strategy/index.js';
import smaBracket from '../../strategies/sma-bracket.js';
import { AAPL, backtest, dayBar } from '../support/backtest/scripted.js';

const BUNDLED_DATA = fileURLToPath(new URL('../../backtest-data', import.meta.url));

describe('sma-bracket strategy', () => {
  it('enters on the bundled S&P 500 history and leaves by every kind of exit, each trade tagged', async () => {
    const strategy = prepareStrategy(smaBracket, {}, 'strategies/sma-bracket.ts');
    const data = await loadBacktestData(BUNDLED_DATA);

    const run = await runBacktest({ strategies: [strategy], data });
    const result = buildResult(run.record);

    const exits = new Set(result.trades.map((trade) => trade.exitTag));
    expect([...exits].sort()).toEqual(['below-sma', 'stop-loss', 'take-profit', 'trailing-stop']);
    expect(new Set(result.trades.map((trade) => trade.entryTag))).toEqual(new Set(['trend-entry']));
    // Entries size to half of equity at the decision's close: never more than equity.
    const first = result.fills[0]!;
    expect(Number(first.quantity) * Number(first.price)).toBeLessThan(1_000_000);
    expect(Number(first.quantity) * Number(first.price)).toBeGreaterThan(400_000);
  });

  it('does not read a close equal to its SMA as above it', async () => {
    const strategy = prepareStrategy(smaBracket, { symbols: ['AAPL.US'], params: { sma: 4 } }, 'strategies/sma-bracket.ts');
    // Below the average, then a close equal to it: 5.7 is the mean of 5.8, 5.6, 5.7 and 5.7 (summed as
    // floats, 5.699999999999999: the close read as above it, an entry), then up to 5.9.
    const closes = [6, 5.9, 5.8, 5.6, 5.7, 5.7, 5.9, 5.9];
    const days = ['02', '03', '04', '05', '08', '09', '10', '11'];
    const bars = closes.map((close, index) => dayBar(AAPL, `2024-01-${days[index]}`, close, close + 0.1, close - 0.1, close));

    const run = await backtest([bars], [strategy]);

    // The first entry is decided on the 5.9 bar (index 6) and fills at the next open (index 7).
    expect(run.record.fills.map((fill) => fill.time)).toEqual([bars[7]!.time]);
  });
});
