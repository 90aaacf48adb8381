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
import { type Browser, chromiumMissing, launchBrowser } from '../../support/backtest/chromium.js';
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
    });

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
      expect(tradeCells).toEqual(['SPY.US', 'Long', '100', '2024-01-03', '10', '2024-01-05', '12', '197.80', '+19.78%', '2']);
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
  },
);
