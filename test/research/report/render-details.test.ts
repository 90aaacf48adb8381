// What the research pages show, in headless Chromium: param values as text (never markup), numbers with the
// digits that tell them apart and a colour legend, a wide heatmap kept inside its card, and the system's
// dark scheme on every chart with money grouped as in the backtest report; and on paper, within its width.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseObjective } from '../../../src/research/objective.js';
import { OutcomeTable } from '../../../src/research/outcome-table.js';
import { rankTrials } from '../../../src/research/ranking.js';
import { renderOptimizeReport } from '../../../src/research/report/optimize-report.js';
import { renderWalkForwardReport } from '../../../src/research/report/walkforward-report.js';
import type { WalkForwardResult } from '../../../src/research/walkforward.js';
import type { ParamValue } from '../../../src/strategy/params.js';
import { BROWSER_START_MS, type Browser, chromiumMissing, launchBrowser, nextFrame } from '../../support/backtest/chromium.js';
import { syntheticOutcome } from '../../support/research/outcomes.js';

const RULES = { objective: parseObjective('sharpe'), constraints: [], minTrades: 0 };
const EQUITY = Array.from({ length: 50 }, (_, day) => ({ time: 1_577_923_200 + day * 86_400, value: 1_000_000 + day * 1_500 }));

/** An optimize page over made-up trials: `trials` gives each one's params and sharpe. */
async function optimizePage(
  trials: readonly { params: Record<string, ParamValue>; sharpe: number | null }[],
  skipped: readonly { combo: Record<string, string>; reason: string }[] = [],
): Promise<string> {
  const outcomes = new OutcomeTable();
  for (const { params, sharpe } of trials) {
    const made = syntheticOutcome(outcomes.length);
    outcomes.add({ ...made, params, metrics: { ...made.metrics, sharpe } });
  }
  const result = {
    plan: { trials: [], skipped, spaceSize: outcomes.length + skipped.length },
    outcomes,
    ranking: rankTrials(outcomes, RULES),
    overfitting: { pbo: null, deflatedSharpe: null },
    interrupted: false,
    stopped: false,
  };
  return renderOptimizeReport({ strategy: 'made-up', result, rules: RULES, bestEquity: EQUITY });
}

const DAY_MS = 86_400_000;
const WINDOWS_START = Date.UTC(2020, 0, 2, 5);

/** A made-up walk-forward of two like windows (a long categorical value among the chosen params), stitched as given. */
function twoWindowWalkForward(times: readonly number[], equity: readonly number[]): WalkForwardResult {
  const made = syntheticOutcome(1, { sharpe: 1.5, totalReturn: 0.1 });
  const window = {
    window: {
      train: { from: WINDOWS_START, to: WINDOWS_START + 300 * DAY_MS },
      test: { from: WINDOWS_START + 300 * DAY_MS, to: WINDOWS_START + 400 * DAY_MS },
    },
    trials: 12,
    chosen: { ...made, params: { fast: 10, slow: 30, mode: 'a-rather-long-mode-name-that-goes-on-and-on' } },
    test: made,
    testEquity: { times: [], equity: [] },
    pbo: null,
    excluded: {},
  };
  return {
    windows: [window, window],
    stitched: { times, equity },
    outOfSample: { totalReturn: 0.1, cagr: 0.2, sharpe: 1.5, maxDrawdown: 0.1 },
    inSampleObjective: 1.5,
    outOfSampleObjective: 1.5,
    interrupted: false,
  } as unknown as WalkForwardResult;
}

const cellTexts = (cells: readonly { textContent: string | null }[]): string[] => cells.map((cell) => cell.textContent!);
/** What the pages' scripts use of the browser's globals (the tests are type-checked without the DOM's types). */
type Styled = { backgroundColor: string; backgroundImage: string; fill: string; color: string };
type Browsing = {
  getComputedStyle(element: unknown): Styled;
  document: { querySelector(selector: string): unknown; documentElement: { scrollWidth: number } };
  innerWidth: number;
};

describe.skipIf(chromiumMissing !== undefined)(
  `research report details in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let browser: Browser;
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'research-details-'));
      browser = await launchBrowser();
    }, BROWSER_START_MS);
    afterAll(async () => {
      await browser?.close();
      await rm(folder, { recursive: true, force: true });
    });

    async function open(name: string, html: string) {
      const file = join(folder, name);
      await writeFile(file, html);
      const opened = await browser.open(file);
      await opened.page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
      expect(opened.errors).toEqual([]);
      return opened.page;
    }

    it('shows a param value with markup in the heatmap as text, creating no element', async () => {
      const modes = ['<i>ital</i>', '</script><h1>BROKEN</h1>'];
      const trials = [1, 2].flatMap((fast) => modes.map((mode, at) => ({ params: { fast, mode }, sharpe: fast + at })));
      const page = await open('markup.html', await optimizePage(trials));
      expect(await page.$$eval('#heatmap tbody th', cellTexts)).toEqual([...modes].sort((a, b) => a.localeCompare(b)));
      expect(await page.$eval('#heatmap thead th', (corner) => corner.textContent)).toBe('mode ↓ fast →');
      await page.selectOption('#heat-x', 'mode');
      await page.selectOption('#heat-y', 'fast');
      expect(await page.$$eval('#heatmap thead th', cellTexts)).toEqual([
        'fast ↓ mode →',
        ...[...modes].sort((a, b) => a.localeCompare(b)),
      ]);
      expect(await page.$$eval('#heatmap i, #heatmap h1, #heatmap script', (elements) => elements.length)).toBe(0);
      expect(await page.$$eval('h1', (headings) => headings.map((heading) => heading.textContent))).toEqual(['Optimize · made-up']);
    }, 60_000);

    it('shows the digits that tell the cells apart, and a legend of their colours from lowest to highest', async () => {
      const sharpes = [0.2236, 0.2237, 0.2238, 0.2239];
      const trials = sharpes.map((sharpe, at) => ({ params: { fast: 1 + (at % 2), slow: 10 + Math.floor(at / 2) }, sharpe }));
      const page = await open('digits.html', await optimizePage(trials));
      expect(await page.$$eval('#heatmap td.cell', cellTexts)).toEqual(['0.22360', '0.22370', '0.22380', '0.22390']);
      const legend = await page.$eval('#heat-legend', (element) => ({
        low: element.querySelector('.low')!.textContent,
        high: element.querySelector('.high')!.textContent,
        ramp: (globalThis as unknown as Browsing).getComputedStyle(element.querySelector('.ramp')).backgroundImage,
      }));
      expect(legend).toEqual({ low: '0.22360', high: '0.22390', ramp: expect.stringMatching(/^linear-gradient\(to right, rgb/) });
    }, 60_000);

    it('swaps the axes when one is set to the parameter shown on the other, never drawing one against itself', async () => {
      const trials = [1, 2].flatMap((fast) =>
        [10, 20, 30].flatMap((slow) =>
          [100, 200].map((quantity) => ({ params: { fast, slow, quantity }, sharpe: fast + slow / 100 + quantity / 1e4 })),
        ),
      );
      const page = await open('swap.html', await optimizePage(trials));
      const axes = async () => ({
        x: await page.$eval('#heat-x', (select) => (select as unknown as { value: string }).value),
        y: await page.$eval('#heat-y', (select) => (select as unknown as { value: string }).value),
        corner: await page.$eval('#heatmap thead th', (corner) => corner.textContent),
        columns: await page.$$eval('#heatmap thead th + th', cellTexts),
        rows: await page.$$eval('#heatmap tbody th', cellTexts),
      });
      expect(await axes()).toEqual({ x: 'fast', y: 'slow', corner: 'slow ↓ fast →', columns: ['1', '2'], rows: ['10', '20', '30'] });
      await page.selectOption('#heat-y', 'fast');
      expect(await axes()).toEqual({ x: 'slow', y: 'fast', corner: 'fast ↓ slow →', columns: ['10', '20', '30'], rows: ['1', '2'] });
      await page.selectOption('#heat-y', 'quantity');
      await page.selectOption('#heat-x', 'quantity');
      expect(await axes()).toEqual({
        x: 'quantity',
        y: 'slow',
        corner: 'slow ↓ quantity →',
        columns: ['100', '200'],
        rows: ['10', '20', '30'],
      });
      expect(await page.$eval('#heat-held', (held) => held.textContent)).toBe("other parameters at the best trial's values: fast=2");
    }, 60_000);

    it('draws a one-row heatmap along the one searched parameter, with no axis to choose', async () => {
      const trials = [5, 10, 15, 20].map((fast) => ({ params: { fast, slow: 30 }, sharpe: fast === 15 ? 0.9 : fast / 100 }));
      const page = await open('one-param.html', await optimizePage(trials));
      expect(await page.$eval('section h2', (heading) => heading.textContent)).toBe('sharpe by fast');
      expect(await page.$$eval('#heatmap thead th', cellTexts)).toEqual(['fast →', '5', '10', '15', '20']);
      expect(await page.$$eval('#heatmap tbody th', cellTexts)).toEqual(['sharpe']);
      expect(await page.$$eval('#heatmap td.cell', cellTexts)).toEqual(['0.05', '0.10', '0.90', '0.20']);
      expect(await page.$eval('#heatmap td.best', (cell) => cell.title)).toBe('fast=15: sharpe 0.9');
      expect(await page.$$eval('#heat-x, #heat-y', (selects) => selects.length)).toBe(0);
      expect(await page.$eval('#heat-legend .high', (high) => high.textContent)).toBe('0.90');
    }, 60_000);

    it('colours the cells by rank, so one outlier leaves the rest told apart, the legend giving the value at each quarter', async () => {
      // 53 sharpes from 1.00 to 2.04 in a shuffled order, and one of 54.
      const trials = [];
      for (let at = 0; at < 54; at += 1)
        trials.push({ params: { fast: 1 + (at % 6), slow: 1 + Math.floor(at / 6) }, sharpe: at === 20 ? 54 : 1 + ((at * 17) % 53) * 0.02 });
      const page = await open('outlier.html', await optimizePage(trials));
      const hues = await page.$$eval('#heatmap td.cell', (cells) =>
        cells.map((cell) => {
          const [r, g] = (globalThis as unknown as Browsing).getComputedStyle(cell).backgroundColor.match(/\d+/g)!.map(Number);
          return { value: Number(cell.title.split(' ').at(-1)), redOverGreen: r! - g! };
        }),
      );
      const sorted = [...hues].sort((a, b) => a.value - b.value);
      // Lowest red, the runner-up (2.04, far below 54 but above every other) green as the best, the median between.
      expect(sorted[0]!.redOverGreen).toBeGreaterThan(100);
      expect(sorted[52]!.value).toBe(2.04);
      expect(sorted[52]!.redOverGreen).toBeLessThan(-100);
      expect(sorted[53]!.redOverGreen).toBeLessThan(-100);
      expect(Math.abs(sorted[26]!.redOverGreen)).toBeLessThan(30);
      expect(new Set(hues.map((cell) => cell.redOverGreen)).size).toBeGreaterThan(40);
      // Ramp ends at the lowest and highest; marks at the values a quarter, half and three quarters up the ranks.
      const legend = await page.$eval('#heat-legend', (element) => ({
        low: element.querySelector('.low')!.textContent,
        marks: [...element.querySelectorAll('.mark')].map((mark) => mark.textContent),
        high: element.querySelector('.high')!.textContent,
        hint: element.querySelector('.hint')!.textContent,
      }));
      // Their texts as told apart as their colours: two places, from the middle of the values, not the outlier's range.
      const texts = await page.$$eval('#heatmap td.cell', (cells) => cells.map((cell) => cell.textContent));
      expect(new Set(texts).size).toBe(new Set(hues.map((cell) => cell.value)).size);
      expect(legend).toEqual({
        low: '1.00',
        marks: ['1.25', '1.53', '1.79'],
        high: '54.00',
        hint: 'colour by rank among the 54 cells, not by distance: a quarter of them between neighbouring marks · higher is better',
      });
      expect(await page.$eval('#heatmap td.best', (cell) => cell.title)).toBe('fast=3 slow=4: sharpe 54');
    }, 60_000);

    it('keeps a heatmap of 30 columns inside its card, scrolling there', async () => {
      const trials = [];
      for (let fast = 2; fast <= 60; fast += 1)
        for (let slow = 70; slow <= 100; slow += 10) trials.push({ params: { fast, slow }, sharpe: fast / 1000 + slow / 1e5 });
      const page = await open('wide.html', await optimizePage(trials));
      expect(await page.$$eval('#heatmap thead th', (cells) => cells.length)).toBe(1 + 30);
      const box = await page.$eval('#heatmap', (table) => {
        const [scroller, card] = [table.parentElement!, table.closest('section')!];
        return {
          scrollerRight: scroller.getBoundingClientRect().right,
          cardRight: card.getBoundingClientRect().right,
          pageWidth: (globalThis as unknown as Browsing).document.documentElement.scrollWidth,
          windowWidth: (globalThis as unknown as Browsing).innerWidth,
        };
      });
      expect(box.scrollerRight).toBeLessThanOrEqual(box.cardRight);
      expect(box.pageWidth).toBeLessThanOrEqual(box.windowWidth);
    }, 60_000);

    it("themes the charts and the heatmap's numbers for a dark system, money grouped on the equity axis", async () => {
      const trials = [1, 2].flatMap((fast) => [10, 20].map((slow) => ({ params: { fast, slow }, sharpe: fast + slow / 100 })));
      const page = await open('dark.html', await optimizePage(trials));
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
      type Chart = {
        options(): { layout: { background: { color: string } } };
        panes(): { getSeries(): { priceFormatter(): { format(value: number): string } }[] }[];
      };
      const seen = await page.evaluate(() => {
        const chart = (globalThis as unknown as { report: { equityChart: Chart } }).report.equityChart;
        const { getComputedStyle, document } = globalThis as unknown as Browsing;
        const style = (selector: string) => getComputedStyle(document.querySelector(selector));
        return {
          chartBackground: chart.options().layout.background.color,
          money: chart.panes()[0]!.getSeries()[0]!.priceFormatter().format(1_060_000),
          page: style('body').backgroundColor,
          axisTitle: style('svg.scatter text.axis-title').fill,
          tick: style('svg.scatter text').fill,
          cellText: style('#heatmap td.cell').color,
        };
      });
      // report.css's dark --surface, --text and --muted; the cells' colours are light, their numbers dark.
      expect(seen).toEqual({
        chartBackground: '#171b22',
        money: '1,060,000',
        page: 'rgb(15, 18, 23)',
        axisTitle: 'rgb(227, 231, 238)',
        tick: 'rgb(138, 147, 165)',
        cellText: 'rgb(29, 35, 48)',
      });
    }, 60_000);
    it('keeps the walk-forward and optimize pages inside a phone-wide window: tables scroll in their cards', async () => {
      const walkForward = twoWindowWalkForward([WINDOWS_START + 300 * DAY_MS, WINDOWS_START + 400 * DAY_MS], [100, 110]);
      const trials = [1, 2, 3].flatMap((fast) => [10, 20, 30].map((slow) => ({ params: { fast, slow }, sharpe: fast + slow / 100 })));
      const pages = [
        ['narrow-walkforward.html', await renderWalkForwardReport('made-up', walkForward, 'America/New_York', 'sharpe')],
        ['narrow-optimize.html', await optimizePage(trials)],
      ] as const;
      for (const [name, html] of pages) {
        const page = await open(name, html);
        await page.setViewportSize({ width: 375, height: 800 });
        await page.reload();
        await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
        const seen = await page.evaluate(() => {
          const browsing = globalThis as unknown as Browsing;
          return { pageWidth: browsing.document.documentElement.scrollWidth, windowWidth: browsing.innerWidth };
        });
        expect(seen.pageWidth, name).toBeLessThanOrEqual(seen.windowWidth);
      }
    }, 60_000);
    it("prints the optimize and walk-forward pages within the paper's width, colours kept, controls left out, charts as pictures", async () => {
      // 80 × 4 trials: 40 columns of bins, far wider than the paper on screen.
      const trials = [];
      for (let fast = 1; fast <= 80; fast += 1)
        for (let slow = 70; slow <= 100; slow += 10) trials.push({ params: { fast, slow }, sharpe: fast / 1000 + slow / 1e5 });
      const times = Array.from({ length: 100 }, (_, index) => WINDOWS_START + (300 + index) * DAY_MS);
      const walkForward = twoWindowWalkForward(
        times,
        times.map((_, index) => 100_000 + index * 100),
      );
      const pages = [
        ['print-optimize.html', await optimizePage(trials)],
        ['print-walkforward.html', await renderWalkForwardReport('made-up', walkForward, 'America/New_York', 'sharpe')],
      ] as const;
      type Box = { left: number; right: number; width: number };
      type Element = {
        getBoundingClientRect(): Box;
        querySelectorAll(selector: string): Iterable<Element>;
        closest(selector: string): Element;
        scrollWidth: number;
        clientWidth: number;
      };
      type Printing = {
        getComputedStyle(element: Element): { display: string; printColorAdjust: string };
        document: { querySelector(selector: string): Element | null; querySelectorAll(selector: string): Iterable<Element> };
      };
      for (const [name, html] of pages) {
        const page = await open(name, html);
        expect(await page.$('#equity-chart canvas')).not.toBeNull();
        // Drawn on a wide screen, printed on narrower paper.
        await page.emulateMedia({ media: 'print' });
        await page.setViewportSize({ width: 600, height: 900 });
        await nextFrame(page);
        const printed = await page.evaluate(() => {
          const { document, getComputedStyle } = globalThis as unknown as Printing;
          const sections = [...document.querySelectorAll('section')];
          const past = sections.flatMap((section) =>
            [...section.querySelectorAll('*')]
              .filter(
                (element) =>
                  getComputedStyle(element).display !== 'none' &&
                  element.getBoundingClientRect().right > section.getBoundingClientRect().right + 0.5,
              )
              .map((element) => (element as unknown as { tagName: string }).tagName),
          );
          const cells = [...document.querySelectorAll('.heat-print th, .heat-print td')];
          const picture = document.querySelector('#equity-chart .chart-print');
          const chart = document.querySelector('#equity-chart')!;
          return {
            past,
            spilling: cells.filter((cell) => cell.scrollWidth > cell.clientWidth).length,
            controls: [...document.querySelectorAll('.control, .screen-only, select')].map((element) => getComputedStyle(element).display),
            colours: [
              ...new Set(
                [...document.querySelectorAll('.heat-print td.cell, .legend .ramp')].map(
                  (element) => getComputedStyle(element).printColorAdjust,
                ),
              ),
            ],
            picture:
              picture !== null &&
              getComputedStyle(picture).display === 'block' &&
              Math.abs(picture.getBoundingClientRect().width - chart.getBoundingClientRect().width) < 1,
            chartShown: [...chart.querySelectorAll(':scope > :not(.chart-print)')].map((element) => getComputedStyle(element).display),
          };
        });
        const optimize = name === 'print-optimize.html';
        expect(printed, name).toEqual({
          past: [],
          spilling: 0,
          controls: optimize ? ['none', 'none', 'none', 'none', 'none', 'none'] : [],
          colours: optimize ? ['exact'] : [],
          picture: true,
          chartShown: ['none'],
        });
        // Saving as PDF goes through the same; the screen's chart comes back after.
        expect((await page.pdf({ format: 'A4' })).length).toBeGreaterThan(10_000);
        await page.emulateMedia({ media: 'screen' });
        await nextFrame(page);
        expect(await page.$$eval('#equity-chart .chart-print', (pictures) => pictures.length)).toBe(0);
        expect(await page.$('#equity-chart canvas')).not.toBeNull();
        await page.close();
      }
    }, 60_000);
    it('prints a 40-column heatmap on portrait paper in blocks of columns, each with the row labels, its numbers at least 9 px', async () => {
      // fast 1..40 × slow 50..200 by 10, as `--param fast=1:40:1 --param slow=50:200:10` gives.
      const trials = [];
      for (let fast = 1; fast <= 40; fast += 1)
        for (let slow = 50; slow <= 200; slow += 10) trials.push({ params: { fast, slow }, sharpe: (fast * slow) / 10_000 });
      const page = await open('print-blocks.html', await optimizePage(trials));
      type Cell = { textContent: string | null; getBoundingClientRect(): { width: number } };
      type Block = { querySelectorAll(selector: string): Iterable<Cell> };
      type Printing = {
        getComputedStyle(element: Cell): { fontSize: string };
        document: { querySelectorAll(selector: string): Iterable<Block & Cell> };
      };
      // A4 portrait within Chromium's default 0.4 in margins: 794 - 77 CSS px.
      await page.emulateMedia({ media: 'print' });
      await page.setViewportSize({ width: 717, height: 1000 });
      await nextFrame(page);
      const printed = await page.evaluate(() => {
        const { document, getComputedStyle } = globalThis as unknown as Printing;
        const shown = (cell: Cell) => cell.getBoundingClientRect().width > 0;
        const blocks = [...document.querySelectorAll('.heatmap')].filter(shown);
        return {
          columns: blocks.map((block) =>
            [...block.querySelectorAll('thead th')]
              .slice(1)
              .map((cell) => cell.textContent)
              .join(' '),
          ),
          rows: blocks.map((block) => [...block.querySelectorAll('tbody th')].map((cell) => cell.textContent).join(' ')),
          smallestType: Math.min(
            ...blocks.flatMap((block) =>
              [...block.querySelectorAll('td.cell')].map((cell) => Number.parseFloat(getComputedStyle(cell).fontSize)),
            ),
          ),
        };
      });
      const labels = (from: number, to: number, step = 1) =>
        Array.from({ length: (to - from) / step + 1 }, (_, index) => String(from + index * step)).join(' ');
      expect(printed.smallestType).toBeGreaterThanOrEqual(9);
      expect(printed.columns).toEqual([labels(1, 20), labels(21, 40)]);
      expect(printed.rows).toEqual([labels(50, 200, 10), labels(50, 200, 10)]);
    }, 60_000);
    it('prints the optimize and walk-forward pages light on a dark system, the equity chart a picture in the light palette', async () => {
      const trials = [1, 2].flatMap((fast) => [10, 20].map((slow) => ({ params: { fast, slow }, sharpe: fast + slow / 100 })));
      const times = Array.from({ length: 100 }, (_, index) => WINDOWS_START + (300 + index) * DAY_MS);
      const walkForward = twoWindowWalkForward(
        times,
        times.map((_, index) => 100_000 + index * 100),
      );
      const pages = [
        ['dark-optimize.html', await optimizePage(trials)],
        ['dark-walkforward.html', await renderWalkForwardReport('made-up', walkForward, 'America/New_York', 'sharpe')],
      ] as const;
      type Canvas = { getContext(kind: '2d'): { getImageData(x: number, y: number, width: number, height: number): { data: number[] } } };
      type Printing = Browsing & {
        document: { querySelectorAll(selector: string): Iterable<Canvas> };
        dispatchEvent(event: unknown): void;
        Event: new (type: string) => unknown;
      };
      for (const [name, html] of pages) {
        const page = await open(name, html);
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.reload();
        await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
        const seen = (event?: string) =>
          page.evaluate((type) => {
            const browsing = globalThis as unknown as Printing;
            if (type !== undefined) browsing.dispatchEvent(new browsing.Event(type));
            const { document, getComputedStyle } = browsing;
            const style = (selector: string) =>
              document.querySelector(selector) === null ? null : getComputedStyle(document.querySelector(selector));
            return {
              text: style('h1')!.color,
              tick: style('svg.scatter text')?.fill ?? null,
              // The chart's background, at the picture's corner.
              pictures: [...document.querySelectorAll('.chart-print')].map((picture) => {
                const [red, green, blue] = picture.getContext('2d').getImageData(1, 1, 1, 1).data;
                return `rgb(${red}, ${green}, ${blue})`;
              }),
            };
          }, event);
        const optimize = name === 'dark-optimize.html';
        const paper = { text: 'rgb(29, 35, 48)', tick: optimize ? 'rgb(107, 115, 133)' : null, pictures: ['rgb(255, 255, 255)'] };
        // The browser's Print: beforeprint in the screen's media, then the print media.
        expect(await seen('beforeprint'), name).toEqual(paper);
        await page.emulateMedia({ media: 'print' });
        await nextFrame(page);
        expect(await seen(), name).toEqual(paper);
        await page.emulateMedia({ media: 'screen' });
        await nextFrame(page);
        expect(await seen('afterprint'), name).toEqual({
          text: 'rgb(227, 231, 238)',
          tick: optimize ? 'rgb(138, 147, 165)' : null,
          pictures: [],
        });
        await page.close();
      }
    }, 60_000);
    it("tells the heatmap's holes apart: refused by the strategy, left out of the ranking and why, each cell titled with its trial", async () => {
      const trials = [
        { params: { fast: 1, slow: 10 }, sharpe: 0.123456789 },
        { params: { fast: 2, slow: 10 }, sharpe: 0.5 },
        { params: { fast: 1, slow: 20 }, sharpe: 0.25 },
        { params: { fast: 2, slow: 20 }, sharpe: null },
        { params: { fast: 3, slow: 20 }, sharpe: 0.75 },
      ];
      const refused = [{ combo: { fast: '3', slow: '10' }, reason: 'param fast: fast must be shorter than slow' }];
      const page = await open('holes.html', await optimizePage(trials, refused));
      const rows = await page.$$eval('#heatmap tbody tr', (rows) =>
        rows.map((row) =>
          [...row.querySelectorAll('td')].map((cell) => ({ text: cell.textContent, title: cell.title, kind: cell.className })),
        ),
      );
      expect(rows).toEqual([
        [
          { text: '0.12', title: 'fast=1 slow=10: sharpe 0.123456789', kind: 'cell' },
          { text: '0.50', title: 'fast=2 slow=10: sharpe 0.5', kind: 'cell' },
          {
            text: '',
            title: 'fast=3 slow=10: refused by the strategy: param fast: fast must be shorter than slow',
            kind: 'cell empty refused',
          },
        ],
        [
          { text: '0.25', title: 'fast=1 slow=20: sharpe 0.25', kind: 'cell' },
          { text: '—', title: 'fast=2 slow=20: left out: no sharpe', kind: 'cell empty left-out' },
          { text: '0.75', title: 'fast=3 slow=20: sharpe 0.75', kind: 'cell best' },
        ],
      ]);
      // The refused value has its column, in number order.
      expect(await page.$$eval('#heatmap thead th', cellTexts)).toEqual(['slow ↓ fast →', '1', '2', '3']);
      expect(await page.$eval('.heat-holes', (key) => key.textContent)).toMatch(/refused by the strategy's paramsSchema/);
    }, 60_000);
  },
);
