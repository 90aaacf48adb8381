import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/backtest/report/html.js';
import { buildResult } from '../../../src/backtest/report/result-builder.js';
import type { BacktestRecord } from '../../../src/backtest/result.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { BROWSER_START_MS, type Browser, chromiumMissing, launchBrowser, nextFrame } from '../../support/backtest/chromium.js';
import { barsFromCloses, randomWalkBars, simulateRun, SPY } from '../../support/backtest/fixtures.js';

const HK = parseSymbol('700.HK');

/** Sizes of the canvases inside a chart container, and how many distinct colours the largest one shows. */
async function chartCanvas(page: Page, selector: string): Promise<{ count: number; width: number; height: number; colours: number }> {
  return page.$eval(selector, (container) => {
    const canvases = [...container.querySelectorAll('canvas')];
    const largest = canvases.reduce(
      (best, canvas) => (canvas.width * canvas.height > best.width * best.height ? canvas : best),
      canvases[0]!,
    );
    const pixels = largest.getContext('2d')!.getImageData(0, 0, largest.width, largest.height).data;
    const colours = new Set<number>();
    for (let index = 0; index < pixels.length; index += 4 * 7)
      colours.add((pixels[index]! << 16) | (pixels[index + 1]! << 8) | pixels[index + 2]!);
    return { count: canvases.length, width: largest.width, height: largest.height, colours: colours.size };
  });
}

describe.skipIf(chromiumMissing !== undefined)(
  `report page in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let browser: Browser;
    let folder: string;

    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'report-render-'));
      browser = await launchBrowser();
    }, BROWSER_START_MS);

    afterAll(async () => {
      await browser?.close();
      await rm(folder, { recursive: true, force: true });
    });

    async function openReport(record: BacktestRecord, name: string) {
      const file = join(folder, name);
      await writeFile(file, await renderReport(record, buildResult(record)));
      const opened = await browser.open(file);
      await opened.page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
      return { ...opened, file };
    }

    it('renders the charts and the hand-checked figures without errors or network requests', async () => {
      // as in compute.test.ts: buy 100 at 10, sell at 12, commission 1 + 1.2 → final equity 10,197.80, +1.98 %
      const bars = barsFromCloses([10, 11, 12, 11, 13]);
      const record = simulateRun(
        new Map([[SPY, bars]]),
        [
          { bar: 1, side: 'Buy', quantity: 100 },
          { bar: 3, side: 'Sell', quantity: 100 },
        ],
        {
          initialCash: 10_000,
          commissionRate: '0.001',
          strategy: '<b>"quoted"</b></script>',
        },
      );

      const { page, requests, errors, file } = await openReport(record, 'hand-checked.html');

      expect(errors).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(await page.title()).toBe('Backtest · <b>"quoted"</b></script>');
      expect(await page.textContent('#metrics tr[data-metric="finalEquity"] td')).toBe('10,197.80 USD');
      expect(await page.textContent('#metrics tr[data-metric="totalReturn"] td')).toBe('+1.98%');
      expect(await page.textContent('#metrics tr[data-metric="closedTrades"] td')).toBe('1');
      expect(await page.textContent('.card[data-metric="winRate"] .value')).toBe('100.00%');
      const tradeCells = await page.$$eval('#trades tbody tr td', (cells) => cells.map((cell) => cell.textContent));
      // Prices at the data's decimal places (one: the bars' highs are 10.5 …).
      expect(tradeCells).toEqual(['SPY.US', 'Long', '100', '2024-01-03', '10.0', '2024-01-05', '12.0', '197.80', '+19.78%', '2', '']);
      for (const chart of ['#price-chart', '#equity-chart', '#drawdown-chart']) {
        const canvas = await chartCanvas(page, chart);
        expect(canvas.width, chart).toBeGreaterThan(100);
        expect(canvas.height, chart).toBeGreaterThan(50);
        expect(canvas.colours, `${chart} draws more than its background`).toBeGreaterThan(2);
      }
      await page.close();
    });

    it('switches symbols, pages through trades and stays quiet with a few thousand bars', async () => {
      const bars = new Map([
        [SPY, randomWalkBars(2500, { seed: 11 })],
        [HK, randomWalkBars(2500, { seed: 5, symbol: HK, startPrice: 300 })],
      ]);
      const orders = Array.from({ length: 60 }, (_, trade) => [
        { bar: 40 * trade + 3, side: 'Buy' as const, quantity: 100 },
        { bar: 40 * trade + 20, side: 'Sell' as const, quantity: 100 },
        { bar: 40 * trade + 10, side: 'Sell' as const, quantity: 200, symbol: HK },
        { bar: 40 * trade + 30, side: 'Buy' as const, quantity: 200, symbol: HK },
      ]).flat();
      const record = simulateRun(bars, orders, { commissionRate: '0.0005' });

      const { page, requests, errors } = await openReport(record, 'two-symbols.html');

      expect(await page.$$eval('#trades tbody tr', (rows) => rows.length)).toBe(50);
      expect(await page.textContent('#trades-page')).toBe('Page 1 of 3');
      await page.click('#trades-next');
      await page.click('#trades-next');
      expect(await page.$$eval('#trades tbody tr', (rows) => rows.length)).toBe(20);
      expect(await page.isDisabled('#trades-next')).toBe(true);

      expect(await page.$$eval('#symbol option', (options) => options.map((option) => option.textContent))).toEqual(['SPY.US', '700.HK']);
      await page.selectOption('#symbol', '1');
      const canvas = await chartCanvas(page, '#price-chart');
      expect(canvas.colours).toBeGreaterThan(2);

      expect(errors).toEqual([]);
      expect(requests).toHaveLength(1);
      await page.close();
    });

    it('scales the price axis to the candles, not down to 0, with hundreds of fill markers', async () => {
      // 20 years of daily bars around 1,500 and 175 round trips: the markers once pulled the axis to 0.
      const bars = randomWalkBars(5000, { seed: 7, startPrice: 1500 });
      const orders = Array.from({ length: 175 }, (_, trade) => [
        { bar: 28 * trade + 2, side: 'Buy' as const, quantity: 100 },
        { bar: 28 * trade + 16, side: 'Sell' as const, quantity: 100 },
      ]).flat();
      const record = simulateRun(new Map([[SPY, bars]]), orders, { initialCash: 10_000_000 });
      const lowest = Math.min(...bars.map((bar) => bar.low));
      const highest = Math.max(...bars.map((bar) => bar.high));

      const { page, errors } = await openReport(record, 'price-axis.html');
      // The prices at the pane's bottom and top edges.
      const [bottom, top] = await page.evaluate(() => {
        type Chart = {
          panes(): { getSeries(): { coordinateToPrice(y: number): number }[] }[];
          paneSize(index: number): { height: number };
        };
        const chart = (globalThis as unknown as { report: { priceChart: Chart } }).report.priceChart;
        const candles = chart.panes()[0]!.getSeries()[0]!;
        return [candles.coordinateToPrice(chart.paneSize(0).height), candles.coordinateToPrice(0)];
      });

      expect(errors).toEqual([]);
      // The scale's own margins (10 % below, 20 % above the candles), nothing more: the markers once added a
      // quarter of the range below and 40 % above.
      const span = highest - lowest;
      expect(bottom).toBeLessThan(lowest);
      expect(bottom).toBeGreaterThan(lowest - 0.2 * span);
      expect(top).toBeGreaterThan(highest);
      expect(top).toBeLessThan(highest + 0.35 * span);
      await page.close();
    });

    it("labels the price axis with the symbol's decimal places: prices of 0.0001 are not all 0.00", async () => {
      // Prices of 0.0005 to 0.0009: a tenth of a thousandth of the fixture's.
      const bars = barsFromCloses([5, 6, 7, 6, 8, 9, 7]).map((bar) => ({
        ...bar,
        open: bar.open / 10_000,
        high: bar.high / 10_000,
        low: bar.low / 10_000,
        close: bar.close / 10_000,
      }));
      const record = simulateRun(new Map([[SPY, bars]]), [], { initialCash: 1_000 });
      const { page, errors } = await openReport(record, 'tiny-prices.html');
      const format = await page.evaluate(() => {
        type Chart = { panes(): { getSeries(): { options(): { priceFormat: { precision: number; minMove: number } } }[] }[] };
        const chart = (globalThis as unknown as { report: { priceChart: Chart } }).report.priceChart;
        return chart.panes()[0]!.getSeries()[0]!.options().priceFormat;
      });
      expect(errors).toEqual([]);
      // Highs and lows half a unit from the closes: five places.
      expect(format).toMatchObject({ precision: 5, minMove: 0.00001 });
      await page.close();
    });

    it('shows settings that were not given as "not set", not as raw nulls', async () => {
      const record = {
        ...simulateRun(new Map([[SPY, barsFromCloses([10, 11, 12])]]), []),
        settings: { fill: 'next-open', commission: null, risk: null },
      };

      const { page } = await openReport(record, 'settings.html');
      const cells = await page.$$eval('#settings tr', (rows) => rows.map((row) => row.textContent));

      expect(cells).toEqual(['fillnext-open', 'commissionnot set', 'risknot set']);
      await page.close();
    });
    it('keeps a long data path and a phone-wide window inside the page: nothing scrolls the page sideways', async () => {
      const path = `/home/someone/research/${'very-long-folder-name/'.repeat(6)}candles-adjusted.csv`;
      const record = {
        ...simulateRun(
          new Map([[SPY, barsFromCloses([10, 11, 12, 11, 13])]]),
          [
            { bar: 1, side: 'Buy', quantity: 100 },
            { bar: 3, side: 'Sell', quantity: 100 },
          ],
          { initialCash: 1_000_000, strategy: `a-strategy-${'with-a-long-name-'.repeat(5)}` },
        ),
        settings: { data: path, fill: 'next-open', commission: null },
      };
      const { page, errors } = await openReport(record, 'narrow.html');
      type Box = { right: number };
      type Browsing = {
        innerWidth: number;
        document: { documentElement: { scrollWidth: number }; querySelectorAll(selector: string): Iterable<unknown> };
      };
      const measure = () =>
        page.evaluate(() => {
          const { document, innerWidth } = globalThis as unknown as Browsing;
          const right = (element: unknown) => (element as { getBoundingClientRect(): Box }).getBoundingClientRect().right;
          const cell = [...document.querySelectorAll('#settings td')][0] as { textContent: string; closest(selector: string): unknown };
          return {
            pageWidth: document.documentElement.scrollWidth,
            windowWidth: innerWidth,
            path: cell.textContent,
            cellInsideCard: right(cell) <= right(cell.closest('section')) + 0.5,
          };
        });
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await page.reload();
        await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
        const seen = await measure();
        expect(seen.pageWidth, `page at ${width} px`).toBeLessThanOrEqual(seen.windowWidth);
        expect(seen, `at ${width} px`).toMatchObject({ path, cellInsideCard: true });
      }
      expect(errors).toEqual([]);
      await page.close();
    });
    it('prints light on a dark system: dark text on white, each chart a picture in the light palette, then dark again', async () => {
      const record = simulateRun(new Map([[SPY, barsFromCloses([10, 11, 12, 11, 13])]]), [
        { bar: 1, side: 'Buy', quantity: 100 },
        { bar: 3, side: 'Sell', quantity: 100 },
      ]);
      const { page, errors } = await openReport(record, 'print-dark.html');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
      type Canvas = { getContext(kind: '2d'): { getImageData(x: number, y: number, width: number, height: number): { data: number[] } } };
      type Browsing = {
        getComputedStyle(element: unknown): { color: string; display: string };
        document: { querySelector(selector: string): unknown; querySelectorAll(selector: string): Iterable<Canvas> };
        dispatchEvent(event: unknown): void;
        Event: new (type: string) => unknown;
        report: { equityChart: { options(): { layout: { background: { color: string } } } } };
      };
      const seen = (event?: string) =>
        page.evaluate((name) => {
          const browsing = globalThis as unknown as Browsing;
          if (name !== undefined) browsing.dispatchEvent(new browsing.Event(name));
          const { document, getComputedStyle } = browsing;
          return {
            text: getComputedStyle(document.querySelector('h1')).color,
            // Each picture's corner: the chart's background.
            pictures: [...document.querySelectorAll('.chart-print')].map((picture) => {
              const [red, green, blue] = picture.getContext('2d').getImageData(1, 1, 1, 1).data;
              return `rgb(${red}, ${green}, ${blue})`;
            }),
            chart: getComputedStyle(document.querySelector('#equity-chart > :not(.chart-print)')).display,
            chartBackground: browsing.report.equityChart.options().layout.background.color,
          };
        }, event);
      const paper = { text: 'rgb(29, 35, 48)', pictures: Array(3).fill('rgb(255, 255, 255)'), chartBackground: '#ffffff' };
      // The browser's Print: beforeprint in the screen's media, then the print media.
      expect(await seen('beforeprint')).toMatchObject(paper);
      await page.emulateMedia({ media: 'print' });
      await nextFrame(page);
      expect(await seen()).toEqual({ ...paper, chart: 'none' });
      await page.emulateMedia({ media: 'screen' });
      await nextFrame(page);
      expect(await seen('afterprint')).toEqual({ text: 'rgb(227, 231, 238)', pictures: [], chart: 'block', chartBackground: '#171b22' });
      expect((await page.pdf({ format: 'A4' })).length).toBeGreaterThan(10_000);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("prints every trade, within the paper's width and without the pager, then shows the screen's page again", async () => {
      // 60 round trips: two pages of the table on screen.
      const closes = Array.from({ length: 240 }, (_, index) => 100 + (index % 4));
      const orders = Array.from({ length: 60 }, (_, trade) => [
        { bar: trade * 4 + 1, side: 'Buy' as const, quantity: 100 },
        { bar: trade * 4 + 3, side: 'Sell' as const, quantity: 100 },
      ]).flat();
      const record = simulateRun(new Map([[SPY, barsFromCloses(closes)]]), orders, { initialCash: 1_000_000 });
      const { page, errors } = await openReport(record, 'print.html');
      await page.setViewportSize({ width: 700, height: 900 });
      const rows = () => page.$$eval('#trades tbody tr', (found) => found.length);
      expect(await rows()).toBe(50);
      await page.emulateMedia({ media: 'print' });
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document.querySelectorAll(
            '#trades tbody tr',
          ).length === 60,
      );
      type Box = { right: number };
      type Element = { getBoundingClientRect(): Box; closest(selector: string): Element; textContent: string };
      type Browsing = { getComputedStyle(element: Element): { display: string }; document: { querySelector(selector: string): Element } };
      const printed = await page.evaluate(() => {
        const { document, getComputedStyle } = globalThis as unknown as Browsing;
        const table = document.querySelector('#trades');
        const lastHeader = document.querySelector('#trades thead th:last-child');
        return {
          tableInsideCard: table.getBoundingClientRect().right <= table.closest('section').getBoundingClientRect().right + 0.5,
          lastColumnVisible: lastHeader.getBoundingClientRect().right <= table.closest('section').getBoundingClientRect().right + 0.5,
          pager: getComputedStyle(document.querySelector('#trades-next')).display,
          status: document.querySelector('#trades-page').textContent,
        };
      });
      expect(printed).toEqual({ tableInsideCard: true, lastColumnVisible: true, pager: 'none', status: 'All 60 trades' });
      await page.emulateMedia({ media: 'screen' });
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document.querySelectorAll(
            '#trades tbody tr',
          ).length === 50,
      );
      // Saving as PDF goes through the same: it lists every trade and comes back.
      expect((await page.pdf({ format: 'A4' })).length).toBeGreaterThan(10_000);
      expect(await rows()).toBe(50);
      expect(errors).toEqual([]);
      await page.close();
    });
  },
);
