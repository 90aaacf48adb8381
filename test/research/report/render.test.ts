// The optimize and walk-forward report pages in Debian's headless Chromium (network cut off): they draw the
// heatmap (switchable to any two parameters), the scatter and the equity charts with no errors or requests.
import { trialSettings } from '../../support/research/trial-settings.js';
import { localDate } from '../../../src/domain/time-zone.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestData } from '../../../src/backtest/data.js';
import type { TrialExecutor } from '../../../src/research/executor.js';
import { parseObjective } from '../../../src/research/objective.js';
import { optimize, planTrials } from '../../../src/research/optimize.js';
import { OutcomeTable } from '../../../src/research/outcome-table.js';
import { rankedOutcomes, rankTrials } from '../../../src/research/ranking.js';
import { parseParamSpace } from '../../../src/research/param-space.js';
import { trialEquity } from '../../../src/research/report/best-equity.js';
import { renderOptimizeReport } from '../../../src/research/report/optimize-report.js';
import { renderWalkForwardReport } from '../../../src/research/report/walkforward-report.js';
import { runTrial } from '../../../src/research/trial.js';
import { parseSpan, walkForward, walkForwardWindows } from '../../../src/research/walkforward.js';
import smaCrossover from '../../../strategies/sma-crossover.js';
import { BROWSER_START_MS, type Browser, chromiumMissing, launchBrowser } from '../../support/backtest/chromium.js';
import { syntheticOutcome } from '../../support/research/outcomes.js';
import { AAPL, wavingDays } from '../../support/run/candles.js';

const DATA = backtestData([{ symbol: AAPL, period: 'day', source: 'generated', candles: wavingDays(400) }]);
const SETTINGS = trialSettings(4);
const context = { definition: smaCrossover as never, data: DATA, risk: undefined };
const inProcess: TrialExecutor = {
  async run(trials, onOutcome) {
    for (const trial of trials) onOutcome(await runTrial(context, SETTINGS, trial));
  },
  async close() {},
};
const RULES = { objective: parseObjective('sharpe'), constraints: [], minTrades: 0 };

describe.skipIf(chromiumMissing !== undefined)(
  `research reports in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let browser: Browser;
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'research-report-'));
      browser = await launchBrowser();
    }, BROWSER_START_MS);
    afterAll(async () => {
      await browser?.close();
      await rm(folder, { recursive: true, force: true });
    });

    it('draws the optimize heatmap over any two parameters, the scatter and the best equity', async () => {
      const plan = planTrials(smaCrossover as never, SETTINGS, {
        space: parseParamSpace(['fast=2:6:2', 'slow=8:16:4', 'quantity=10,20']),
        search: 'grid',
        seed: 1,
      });
      const result = await optimize({ plan, rules: RULES, executor: inProcess });
      const best = rankedOutcomes(result.outcomes, result.ranking)[0]!;
      const bestEquity = await trialEquity(context, SETTINGS, plan.trials.find((trial) => trial.index === best.index)!.combo);
      const file = join(folder, 'optimize.html');
      await writeFile(file, await renderOptimizeReport({ strategy: 'sma-crossover', result, rules: RULES, bestEquity }));
      const { page, errors, requests } = await browser.open(file);
      await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
      expect(errors).toEqual([]);
      expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
      // fast × slow: 3 × 3 cells, quantity held at the best's value; the best cell is marked.
      expect(await page.$$eval('#heatmap td.cell', (cells) => cells.length)).toBe(9);
      expect(await page.$$eval('#heatmap td.best', (cells) => cells.length)).toBe(1);
      await page.selectOption('#heat-y', 'quantity');
      expect(await page.$$eval('#heatmap td.cell', (cells) => cells.length)).toBe(6);
      // One circle per spot: trials of 10 and 20 shares (same returns) share theirs, titled with one's params.
      const ranked = rankedOutcomes(result.outcomes, result.ranking);
      const spots = new Set(ranked.map((trial) => `${trial.metrics.maxDrawdown} ${trial.metrics.sharpe}`));
      expect(spots.size).toBeLessThan(ranked.length);
      const titles = await page.$$eval('svg.scatter circle title', (elements) => elements.map((title) => title.textContent!));
      expect(titles).toHaveLength(spots.size);
      const title = /^fast=\d slow=\d+ quantity=[12]0 · drawdown \d\.\d+, sharpe -?\d+\.\d+(?: \(and (\d+) more trials? here\))?$/;
      for (const text of titles) expect(text).toMatch(title);
      expect(titles.reduce((trials, text) => trials + 1 + Number(title.exec(text)![1] ?? 0), 0)).toBe(ranked.length);
      expect(await page.$$eval('svg.scatter circle.best', (circles) => circles.length)).toBe(1);
      expect(await page.$$eval('#equity-chart canvas', (canvases) => canvases.length)).toBeGreaterThan(0);
    }, 120_000);

    it('groups a big grid into bins of neighbouring values, each cell the best trial of its bin', async () => {
      // 100 × 120 made-up trials, sharpe highest (2) at fast 37, slow 90.
      const outcomes = new OutcomeTable();
      for (let fast = 1; fast <= 100; fast += 1)
        for (let slow = 1; slow <= 120; slow += 1) {
          const made = syntheticOutcome(outcomes.length);
          const sharpe = 2 - (fast - 37) ** 2 / 100 - (slow - 90) ** 2 / 1000;
          outcomes.add({ ...made, params: { fast, slow, quantity: 10 }, metrics: { ...made.metrics, sharpe } });
        }
      const result = {
        plan: { trials: [], skipped: [], spaceSize: outcomes.length },
        outcomes,
        ranking: rankTrials(outcomes, RULES),
        overfitting: { pbo: null, deflatedSharpe: null },
        interrupted: false,
        stopped: false,
      };
      const file = join(folder, 'optimize-big.html');
      await writeFile(file, await renderOptimizeReport({ strategy: 'made-up', result, rules: RULES, bestEquity: [] }));
      const { page, errors } = await browser.open(file);
      await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
      expect(errors).toEqual([]);
      // Bins of 3 values: 34 columns (1–3 … 100) × 40 rows (1–3 … 118–120).
      expect(await page.$$eval('#heatmap thead th', (cells) => cells.length)).toBe(1 + 34);
      expect(await page.$$eval('#heatmap td.cell', (cells) => cells.length)).toBe(34 * 40);
      const best = await page.$eval('#heatmap td.best', (cell) => {
        const row = cell.parentElement!;
        const column = [...row.children].indexOf(cell);
        const header = row.closest('table')!.querySelector('thead tr')!.children[column]!;
        return { value: cell.textContent, row: row.firstElementChild!.textContent, column: header.textContent };
      });
      expect(best).toEqual({ value: '2.0', row: '88–90', column: '37–39' });
      expect(await page.$eval('#heat-bins', (hint) => hint.textContent)).toMatch(/grouped/);
    }, 120_000);

    it('draws the walk-forward stitched curve and the windows', async () => {
      const first = DATA.series[0]!.candles[0]!.time;
      const last = DATA.series[0]!.candles.at(-1)!.time;
      const windows = walkForwardWindows(
        first,
        last,
        parseSpan('150d', '--train'),
        parseSpan('100d', '--test'),
        parseSpan('100d', '--step'),
        false,
      );
      const result = await walkForward({
        definition: smaCrossover as never,
        data: DATA,
        risk: undefined,
        settings: SETTINGS,
        search: { space: parseParamSpace(['fast=2:6:2', 'slow=8:16:4']), search: 'grid', seed: 1 },
        rules: RULES,
        windows,
        executor: inProcess,
      });
      const file = join(folder, 'walkforward.html');
      await writeFile(file, await renderWalkForwardReport('sma-crossover', result, 'America/New_York', 'sharpe'));
      const { page, errors } = await browser.open(file);
      await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
      expect(errors).toEqual([]);
      expect(await page.$$eval('#windows tbody tr', (rows) => rows.length)).toBe(windows.length);
      // Each window shows its first and last day, as the terminal and JSON do: the next one starts the day after.
      const dates = (time: number) => localDate(time, 'America/New_York');
      const [firstTest] = windows.map((window) => window.test);
      expect(await page.$eval('#windows tbody td:nth-child(2)', (cell) => cell.textContent)).toBe(
        `${dates(firstTest!.from)}..${dates(firstTest!.to - 1)}`,
      );
      expect(await page.$$eval('#equity-chart canvas', (canvases) => canvases.length)).toBeGreaterThan(0);
      // A window whose training had no trial that qualified says what its test did.
      const unqualified = {
        ...result,
        windows: result.windows.map((window, at) => (at === 0 ? { ...window, chosen: undefined, test: undefined } : window)),
      };
      const html = await renderWalkForwardReport('sma-crossover', unqualified, 'America/New_York', 'sharpe');
      expect(html).toContain('<td class="chosen">no trial qualified: held cash</td>');
    }, 120_000);
    it('fits a long equity curve, all of it, inside its panel', async () => {
      // 20 years of daily points: more than the chart's width at lightweight-charts' default least spacing.
      const start = Date.UTC(2001, 0, 2, 21);
      const times = Array.from({ length: 5_000 }, (_, index) => start + index * 86_400_000);
      const result = {
        windows: [],
        stitched: { times, equity: times.map((_, index) => 100_000 + index) },
        outOfSample: { totalReturn: 0.05, cagr: 0.002, sharpe: 0.4, maxDrawdown: 0 },
        inSampleObjective: null,
        outOfSampleObjective: null,
        interrupted: false,
      };
      const file = join(folder, 'walkforward-long.html');
      await writeFile(file, await renderWalkForwardReport('long', result, 'America/New_York', 'sharpe'));
      const { page, errors } = await browser.open(file);
      await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
      expect(errors).toEqual([]);
      type TimeScale = { fitContent(): void; getVisibleLogicalRange(): { from: number; to: number } | null };
      type Report = { report: { equityChart: { timeScale(): TimeScale } } };
      await page.waitForFunction(() => (globalThis as unknown as Report).report.equityChart.timeScale().getVisibleLogicalRange() !== null);
      const shown = await page.evaluate(() => (globalThis as unknown as Report).report.equityChart.timeScale().getVisibleLogicalRange()!);
      expect(shown.from).toBeLessThanOrEqual(0.5);
      expect(shown.to).toBeGreaterThanOrEqual(times.length - 1.5);
      // Every canvas of the chart (its time axis too) lies inside the chart's panel.
      type Box = { top: number; bottom: number; left: number; right: number };
      type Boxed = { getBoundingClientRect(): Box };
      const [panel, canvases] = await page.$eval('#equity-chart', (chart) => {
        const box = (element: Boxed): Box => {
          const rect = element.getBoundingClientRect();
          return { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right };
        };
        return [box(chart.closest('section')!), [...chart.querySelectorAll('canvas')].map(box)] as const;
      });
      expect(canvases.length).toBeGreaterThan(0);
      for (const canvas of canvases) {
        expect(canvas.bottom).toBeLessThanOrEqual(panel.bottom);
        expect(canvas.right).toBeLessThanOrEqual(panel.right);
      }
    }, 120_000);
  },
);
