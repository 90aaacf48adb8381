import { describe, expect, it } from 'vitest';
import { buildChartData } from '../../../src/backtest/report/chart-data.js';
import { renderReport } from '../../../src/backtest/report/html.js';
import { chartLibrarySource, escapeHtml, jsonForScript, scriptForInline } from '../../../src/backtest/report/inline.js';
import { buildResult } from '../../../src/backtest/report/result-builder.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { barsFromCloses, randomWalkBars, simulateRun, SPY } from '../../support/backtest/fixtures.js';

describe('inlining', () => {
  it('keeps data from closing its script element', () => {
    const text = jsonForScript({ name: '</script><script>alert(1)</script><!--', line: '\u2028' });
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script><!--', line: '\u2028' });
  });

  it('keeps an inlined script from closing its element', () => {
    expect(scriptForInline('var s = "</script>"; var r = /<\\/SCRIPT>/;')).toBe('var s = "<\\/script>"; var r = /<\\/SCRIPT>/;');
  });

  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('report page', () => {
  it('inlines the chart library and needs nothing from the network', async () => {
    const record = simulateRun(new Map([[SPY, randomWalkBars(50)]]), [{ bar: 3, side: 'Buy', quantity: 10 }]);
    const html = await renderReport(record, buildResult(record));
    const library = await chartLibrarySource();

    expect(library).toContain('LightweightCharts');
    expect(html.includes(scriptForInline(library))).toBe(true);
    expect(/<(script|link|img|iframe)[^>]+(src|href)=/i.test(html)).toBe(false);
    expect(/@import|url\(\s*['"]?(https?:)?\/\//i.test(html)).toBe(false);
  });

  it("draws each symbol's fills on its own chart, on the bars they filled at", () => {
    const QQQ = parseSymbol('QQQ.US');
    const record = simulateRun(
      new Map([
        [SPY, randomWalkBars(30, { seed: 1 })],
        [QQQ, randomWalkBars(30, { seed: 2, symbol: QQQ })],
      ]),
      [
        { bar: 3, side: 'Buy', quantity: 10 },
        { bar: 5, side: 'Buy', quantity: 7, symbol: QQQ },
        { bar: 9, side: 'Sell', quantity: 10 },
        { bar: 12, side: 'Sell', quantity: 7, symbol: QQQ },
      ],
    );
    const chart = buildChartData(record, buildResult(record));
    const absolute = (deltas: readonly number[]): number[] =>
      deltas.map((_, index) => deltas.slice(0, index + 1).reduce((a, b) => a + b, 0));
    const fillsOf = (symbol: string) => {
      const series = chart.symbols.find((one) => one.symbol === symbol)!;
      const times = absolute(series.time);
      return series.fills.map(([time, side, quantity]) => [times.indexOf(time), side, quantity]);
    };

    expect(fillsOf(SPY)).toEqual([
      [3, 'B', '10'],
      [9, 'S', '10'],
    ]);
    expect(fillsOf(QQQ)).toEqual([
      [5, 'B', '7'],
      [12, 'S', '7'],
    ]);
  });

  it('names a long universe by its count, first and last symbols beside the title; the selector lists them all', async () => {
    const symbols = Array.from({ length: 12 }, (_, index) => parseSymbol(`S${String(index).padStart(2, '0')}.US`));
    const record = simulateRun(new Map(symbols.map((symbol, index) => [symbol, randomWalkBars(10, { seed: index + 1, symbol })])), []);
    const html = await renderReport(record, buildResult(record));
    const header = html.slice(html.indexOf('<header>'), html.indexOf('</header>'));

    expect(header).toContain('12 symbols: S00.US, S01.US, S02.US … S11.US · ');
    expect(header).not.toContain('S03.US');
    expect(html.match(/<option value="\d+">S\d\d\.US<\/option>/g)).toHaveLength(12);
  });

  it('lists a few symbols in full beside the title', async () => {
    const QQQ = parseSymbol('QQQ.US');
    const record = simulateRun(
      new Map([
        [SPY, randomWalkBars(10, { seed: 1 })],
        [QQQ, randomWalkBars(10, { seed: 2, symbol: QQQ })],
      ]),
      [],
    );
    const html = await renderReport(record, buildResult(record));
    expect(html.slice(html.indexOf('<header>'), html.indexOf('</header>'))).toContain(`<p>${SPY}, QQQ.US · `);
  });

  it('sends prices as whole units that give the data back exactly (the page divides by the scale)', () => {
    const cases = [
      randomWalkBars(300, { seed: 5 }),
      barsFromCloses([1, 2.5, 1234.5678, 0.0001, 99999.99, 7]),
      // Six places, as a file's text reads them.
      randomWalkBars(300, { seed: 6, startPrice: 12_345 }).map((bar) => ({ ...bar, close: Number((bar.close + 0.000123).toFixed(6)) })),
    ];
    for (const bars of cases) {
      const record = simulateRun(new Map([[SPY, bars]]), []);
      const [series] = buildChartData(record, buildResult(record)).symbols;
      // What report.js does with them.
      let close = 0;
      const decoded = series!.close.map((delta, index) => {
        close += delta;
        const at = (difference: number) => (close + difference) / series!.scale;
        return { open: at(series!.open[index]!), high: at(series!.high[index]!), low: at(series!.low[index]!), close: at(0) };
      });
      expect(decoded).toEqual(bars.map(({ open, high, low, close }) => ({ open, high, low, close })));
      expect(series!.close.every(Number.isInteger) && series!.open.every(Number.isInteger)).toBe(true);
    }
  });

  it('stays small for 5,000 daily bars: a few hundred KB besides the library', async () => {
    const bars = randomWalkBars(5000, { seed: 3 });
    const orders = Array.from({ length: 120 }, (_, trade) => [
      { bar: 40 * trade + 5, side: 'Buy' as const, quantity: 100 },
      { bar: 40 * trade + 25, side: 'Sell' as const, quantity: 100 },
    ]).flat();
    const record = simulateRun(new Map([[SPY, bars]]), orders, { commissionRate: '0.001' });
    const html = await renderReport(record, buildResult(record));
    const library = await chartLibrarySource();

    const ownBytes = Buffer.byteLength(html) - Buffer.byteLength(library);
    expect(ownBytes).toBeLessThan(450_000);
  });

  it('says when the run failed, where and on which bar, and lists denials by code with the first message', async () => {
    const record = {
      ...simulateRun(new Map([[SPY, randomWalkBars(20)]]), [{ bar: 3, side: 'Buy', quantity: 10 }]),
      activity: {
        intents: 3,
        orders: 1,
        denialsByCode: { SHORT_SELLING_NOT_ALLOWED: 2 },
        denials: [
          {
            time: randomWalkBars(20)[5]!.time,
            strategy: 'mine',
            code: 'SHORT_SELLING_NOT_ALLOWED',
            message: 'sell 10 SPY.US: no position, and short selling is not allowed',
            intent: { kind: 'close' as const, symbol: SPY },
            figures: {},
          },
        ],
      },
      failures: [
        {
          strategy: 'mine',
          source: 'strategies/mine.ts',
          failure: {
            error: 'boom',
            location: { file: 'strategies/mine.ts', line: 11, column: 32 },
            bar: { symbol: SPY, period: 'day' as const, time: randomWalkBars(20)[9]!.time, index: 9 },
            stack: undefined,
          },
        },
      ],
    };
    const html = await renderReport(record, buildResult(record));

    expect(html).toMatch(
      /<p class="failed" id="failure">FAILED: strategy mine \(strategies\/mine\.ts\) failed at strategies\/mine\.ts:11:32, on the SPY\.US day bar of \d{4}-\d\d-\d\d \(index 9\): boom\. The run stopped at that bar\.<\/p>/,
    );
    expect(html).toContain('3 intents · 1 orders · 1 fills · 2 denied');
    expect(html).toContain(
      '<tr><th>SHORT_SELLING_NOT_ALLOWED</th><td class="number">2</td><td class="detail">sell 10 SPY.US: no position, and short selling is not allowed</td></tr>',
    );
  });
});
