import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestData } from '../../src/backtest/data.js';
import { runBacktest } from '../../src/backtest/engine.js';
import { buildResult } from '../../src/backtest/report/result-builder.js';
import { prepareStrategy } from '../../src/strategy/index.js';
import smaBracket from '../../strategies/sma-bracket.js';

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
});
