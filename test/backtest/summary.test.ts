import { describe, expect, it } from 'vitest';
import { metricRows } from '../../src/backtest/report/metric-rows.js';
import { buildResult } from '../../src/backtest/report/result-builder.js';
import { colorEnabled, formatSummary } from '../../src/backtest/summary.js';
import { parseSymbol } from '../../src/domain/symbol.js';
import { barsFromCloses, recordWithEquity, simulateRun, SPY } from '../support/backtest/fixtures.js';

function roundTrips(count: number) {
  const closes = Array.from({ length: 4 * count + 2 }, (_, index) => 10 + (index % 4));
  const orders = Array.from({ length: count }, (_, trade) => [
    { bar: 4 * trade + 1, side: 'Buy' as const, quantity: 100 },
    { bar: 4 * trade + 3, side: 'Sell' as const, quantity: 100 },
  ]).flat();
  return buildResult(
    simulateRun(new Map([[SPY, barsFromCloses(closes)]]), orders, {
      initialCash: 10_000,
      commissionRate: '0.001',
      strategy: 'sma-crossover',
    }),
  );
}

describe('terminal summary', () => {
  it('lists the metrics with formatted money and percentages', () => {
    // bars 10, 11, 12, 13, 10, 11: buy 100 at 10 (bar 1's open), sell at 12 (bar 3's open), commission 2.2
    const text = formatSummary(roundTrips(1), { color: false });

    expect(text).toContain('Backtest sma-crossover  SPY.US  day  2024-01-02 → 2024-01-07');
    expect(text).toMatch(/Final equity +10,197\.80 USD/);
    expect(text).toMatch(/Total return +\+1\.98%/);
    expect(text).toMatch(/Win rate +100\.00%/);
    expect(text).toMatch(/Profit factor +n\/a/);
    expect(text).toMatch(/Commission +2\.20/);
  });

  it('aligns the values of each column on their right edge', () => {
    const result = roundTrips(1);
    const rows = metricRows(result);
    const lines = formatSummary(result, { color: false }).split('\n');
    const half = Math.ceil(rows.length / 2);
    // each right-column label starts at the same offset, and the values before them end flush
    const starts = rows.slice(half).map((row) => lines.find((line) => line.includes(`    ${row.label}`))!.indexOf(`    ${row.label}`));
    expect(new Set(starts).size).toBe(1);
    const leftEnds = rows.slice(0, half).map((row) => {
      const line = lines.find((candidate) => candidate.startsWith(`  ${row.label}`))!;
      return line.indexOf(row.value) + row.value.length;
    });
    expect(new Set(leftEnds).size).toBe(1);
  });

  it('shows only the last trades with their pnl', () => {
    const text = formatSummary(roundTrips(8), { color: false, lastTrades: 3 });
    expect(text).toContain('Last 3 of 8 trades');
    const tradeRows = text.split('\n').filter((line) => line.startsWith('  SPY.US  Long'));
    expect(tradeRows).toHaveLength(3);
    // Prices at the data's decimal places: the fixture's bars have one (10.5 …).
    expect(tradeRows[0]).toMatch(/2024-01-23 +10\.0 +2024-01-25 +12\.0 +197\.80 +\+19\.78% +2$/);
  });

  it("prints prices at the data's decimal places, not as the floats they arrive as", () => {
    // Closes as the bundled S&P 500 file writes them (up to 6 places, trailing zeros dropped).
    const closes = [2730.73999, 2633.360107, 2889.75, 2971.01001, 2944.22998, 2900];
    const bars = barsFromCloses(closes).map((bar) => ({ ...bar, high: Math.max(bar.open, bar.close), low: Math.min(bar.open, bar.close) }));
    const result = buildResult(
      simulateRun(new Map([[SPY, bars]]), [
        { bar: 1, side: 'Buy', quantity: 1 },
        { bar: 3, side: 'Sell', quantity: 1 },
        { bar: 4, side: 'Buy', quantity: 1 },
      ]),
    );

    expect(result.pricePlaces).toEqual({ 'SPY.US': 6 });
    const text = formatSummary(result, { color: false });
    const trade = text.split('\n').find((line) => line.startsWith('  SPY.US  Long'))!;
    expect(trade).toMatch(/ 2730\.739990 +2024-01-05 +2889\.750000 /);
    expect(text).toMatch(/SPY\.US Long 1 @ 2971\.010010, mark 2900\.000000, /);
  });

  it('shortens a long universe: its count, first and last symbols, and the largest open positions', () => {
    const symbols = Array.from({ length: 12 }, (_, index) => parseSymbol(`S${String(index).padStart(2, '0')}.US`));
    const bars = new Map(symbols.map((symbol) => [symbol, barsFromCloses([10, 10, 10])]));
    // S00 buys 1 share, S01 2, … S11 12: the ten largest are S02 … S11.
    const orders = symbols.map((symbol, index) => ({ bar: 1, side: 'Buy' as const, quantity: index + 1, symbol }));
    const text = formatSummary(buildResult(simulateRun(bars, orders)), { color: false });

    expect(text).toMatch(/^Backtest fixture {2}12 symbols: S00\.US, S01\.US, S02\.US … S11\.US {2}day /);
    expect(text).toContain('Open at the end (valued at the last close), the 10 largest of 12 (--json and --report list them all):');
    const listed = text.split('\n').filter((line) => /^ {2}S\d\d\.US Long/.test(line));
    expect(listed.map((line) => line.slice(2, 8))).toEqual(symbols.slice(2).map((symbol) => symbol.slice(0, 6)));
    expect(text).not.toContain('\n\n\n');
  });

  it('says so when there were no trades', () => {
    const text = formatSummary(buildResult(recordWithEquity([100, 100])), { color: false });
    expect(text).toContain('No closed trades.');
    expect(text).toMatch(/Sharpe +n\/a/);
  });

  it('colours gains green and losses red only when asked', () => {
    const result = roundTrips(1);
    expect(formatSummary(result, { color: true })).toContain('\u001b[32m');
    expect(formatSummary(result, { color: false })).not.toContain('\u001b[');
  });

  it('enables colour only on a terminal without NO_COLOR', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('names the unit of the drawdown and the bars: bar times when several symbols share them', () => {
    const two = buildResult(
      simulateRun(
        new Map([
          [SPY, barsFromCloses([10, 12, 8, 9])],
          [parseSymbol('700.HK'), barsFromCloses([50, 51, 52, 53], { symbol: parseSymbol('700.HK') })],
        ]),
        [{ bar: 1, side: 'Buy', quantity: 100 }],
        { initialCash: 10_000 },
      ),
    );
    const rows = metricRows(two);

    expect(rows.find((row) => row.key === 'bars')).toMatchObject({ value: '8', detail: '4 bar times, 252 per year' });
    expect(rows.find((row) => row.key === 'maxDrawdown')!.detail).toMatch(/\(2 bar times\)$/);
    expect(metricRows(roundTrips(1)).find((row) => row.key === 'maxDrawdown')!.detail).toMatch(/ bars\)$/);
  });

  it("writes times at the data's resolution: a daily strategy on hourly data shows hours", () => {
    const hourly = barsFromCloses([10, 11, 12, 11], { stepMs: 3_600_000, period: '60m' });
    const record = { ...simulateRun(new Map([[SPY, hourly]]), [], { period: '60m' }), strategyPeriod: 'day' as const };

    const text = formatSummary(buildResult(record), { color: false });

    expect(text).toMatch(
      /^Backtest fixture {2}SPY\.US {2}day bars \(built from 60m data\) {2}\d{4}-\d\d-\d\d \d\d:\d\d → \d{4}-\d\d-\d\d \d\d:\d\d$/m,
    );
  });
});
