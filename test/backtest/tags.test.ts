import { describe, expect, it } from 'vitest';
import { buildChartData } from '../../src/backtest/report/chart-data.js';
import { buildResult } from '../../src/backtest/report/result-builder.js';
import { backtestResultSchema } from '../../src/backtest/result.js';
import { formatSummary } from '../../src/backtest/summary.js';
import { AAPL, backtest, dayBar, scripted } from '../support/backtest/scripted.js';

const BARS = [
  dayBar(AAPL, '2024-01-02', 10, 11, 9, 10),
  dayBar(AAPL, '2024-01-03', 10, 11, 9, 10.5),
  dayBar(AAPL, '2024-01-04', 11, 12, 10, 11.5),
  dayBar(AAPL, '2024-01-05', 12, 13, 11, 12),
  dayBar(AAPL, '2024-01-08', 12, 12, 11, 11),
];

describe('intent tags', () => {
  it('carries each intent tag into its fills, the trades it opened and closed, the summary and the events', async () => {
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.buy(10, { tag: 'breakout' }),
      1: (ctx) => ctx.close({ tag: 'signal-exit' }),
      2: (ctx) => ctx.buy(5),
      3: (ctx) => ctx.close({ tag: 'stop-loss' }),
    });

    const run = await backtest([BARS], [strategy]);
    const result = backtestResultSchema.parse(buildResult(run.record));

    expect(result.fills.map((fill) => [fill.side, fill.tag])).toEqual([
      ['Buy', 'breakout'],
      ['Sell', 'signal-exit'],
      ['Buy', null],
      ['Sell', 'stop-loss'],
    ]);
    expect(result.trades.map((trade) => [trade.entryTag, trade.exitTag])).toEqual([
      ['breakout', 'signal-exit'],
      [null, 'stop-loss'],
    ]);
    const summary = formatSummary(result, { color: false });
    expect(summary).toContain('breakout → signal-exit');
    expect(summary).toMatch(/Exits by tag:\n {2}signal-exit {2}1 trade, /);
    expect(summary).toMatch(/\n {2}stop-loss {4}1 trade, /);
    // The report's trades table: the tags cell after the bars held.
    expect(buildChartData(run.record, result).trades.map((row) => row[10])).toEqual(['breakout → signal-exit', '· → stop-loss']);
    const fillEvents = run.events.filter((event) => event.type === 'fill');
    expect(fillEvents.map((event) => (event.type === 'fill' ? event.tag : 'not a fill'))).toEqual([
      'breakout',
      'signal-exit',
      undefined,
      'stop-loss',
    ]);
  });

  it('leaves the summary without tag columns when no intent was tagged', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(10), 1: (ctx) => ctx.close() });
    const result = buildResult((await backtest([BARS], [strategy])).record);

    expect(result.trades.map((trade) => [trade.entryTag, trade.exitTag])).toEqual([[null, null]]);
    const summary = formatSummary(result, { color: false });
    expect(summary).not.toContain('Tags');
    expect(summary).not.toContain('Exits by tag');
  });
});
