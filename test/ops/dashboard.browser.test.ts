// The dashboard in a real browser (Debian's headless Chromium) against a paper run on the real simulator:
// the page loads with no network beyond the process, follows fills live, and its buttons cancel, flatten,
// pause and trip the kill switch end to end; a wrong token gets nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Quantity } from '../../src/domain/index.js';
import { BROWSER_START_MS } from '../support/backtest/chromium.js';
import { chromiumMissing, launchDashboardBrowser, type DashboardBrowser } from '../support/ops/browser.js';
import { startRunOps, type RunOps } from '../support/ops/run-ops.js';
import { AAPL } from '../support/run/candles.js';
import { removeTempFolders } from '../support/run/paper-harness.js';

const WAIT = { timeout: 10_000 };

describe.skipIf(chromiumMissing !== undefined)(
  `dashboard in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let browser: DashboardBrowser;
    let run: RunOps | undefined;

    beforeAll(async () => {
      browser = await launchDashboardBrowser();
    }, BROWSER_START_MS);
    afterAll(async () => {
      await browser?.close();
    });
    afterEach(async () => {
      await run?.close();
      run = undefined;
      await removeTempFolders();
    });

    it('loads from the process alone, shows the paper account, and shows a fill and its position as they happen', async () => {
      run = await startRunOps();
      const { harness, strategy } = run;
      await harness.step();

      const { page, foreign, errors } = await browser.open(run.pageUrl);
      await page.waitForSelector('body[data-state="ready"]', WAIT);

      expect(await page.textContent('#bot-name')).toBe('dip-buyer');
      expect(await page.textContent('#bot-mode')).toBe('paper');
      expect(await page.isVisible('#read-only')).toBe(false);
      await page.waitForSelector('[data-card="net-assets"] .value', WAIT);
      expect(await page.textContent('[data-card="net-assets"] .label')).toBe('Net assets USD');
      expect(await page.textContent('#stream-state')).toBe('live');
      expect(page.url()).not.toContain(run.token);

      strategy.emit((ctx) => ctx.buy(10));
      await harness.settle();
      await harness.step();

      const fill = await page.waitForSelector('#fills tbody tr[data-fill-id]', WAIT);
      const cells = await fill.$$eval('td', (tds) => tds.map((td) => td.textContent));
      expect(cells.slice(1, 5)).toEqual(['dip-buyer', 'AAPL.US', 'Buy', '10']);
      expect(cells[6]).toMatch(/^-?\d+\.\d\d$/);
      expect(cells[7]).toMatch(/^lt-/);
      await page.waitForSelector('#positions tbody tr[data-symbol="AAPL.US"]', WAIT);
      expect(await page.textContent('#positions tr[data-symbol="AAPL.US"] td:nth-child(2)')).toBe('10');
      const pnl = '#positions tr[data-symbol="AAPL.US"] td:nth-child(5)';
      await page.waitForFunction(`document.querySelector(${JSON.stringify(pnl)}).textContent !== ''`, undefined, WAIT);
      expect(await page.textContent(pnl)).toMatch(/^-?\d+(\.\d+)? USD$/);
      expect(await page.textContent('[data-card="buy-power"] .label')).toBe('Buying power USD');
      expect(await page.textContent('[data-card="buy-power"] .value')).toMatch(/^\d+(\.\d+)?$/);
      for (const connection of ['quote', 'trade'])
        await page.waitForSelector(`#connections li[data-name="${connection}"][data-status="online"]`, WAIT);
      await page.waitForSelector('#log li', WAIT);
      expect(await page.textContent('#log')).toContain('fill');
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('draws the equity curve and a busy page (the README screenshot when DASHBOARD_SCREENSHOT names a file)', async () => {
      run = await startRunOps({ risk: { maxPositionPerSymbol: Quantity.of(150) } });
      const { harness, strategy } = run;
      const { page, errors, foreign } = await browser.open(run.pageUrl);
      await page.waitForSelector('body[data-state="ready"]', WAIT);
      const trades = [40, 60, -30, 50, -70, 80, -50, 40];
      for (const quantity of trades) {
        await harness.step();
        harness.clock.advanceBy(1000);
        // Some market orders expire unfilled: a sell takes at most what is held (the account cannot sell short).
        const held = harness.session.positions.quantity(AAPL).toNumber();
        const selling = Math.min(-quantity, held);
        if (quantity > 0) strategy.emit((ctx) => ctx.buy(quantity));
        else if (selling > 0) strategy.emit((ctx) => ctx.sell(selling));
        await harness.settle();
        await harness.step(2);
        harness.clock.advanceBy(1000);
        await run.ops.hub.settled();
        run.ops.hub.refresh();
        await run.ops.hub.settled();
      }
      strategy.emit((ctx) => ctx.buy(400));
      strategy.emit((ctx) => ctx.buy(20, { price: 60 }));
      await harness.settle();
      await run.ops.hub.settled();

      const denial = await page.waitForSelector('#denials tbody tr[data-code="EXCEEDS_MAX_POSITION"]', WAIT);
      expect(await denial.$eval('td:nth-child(6)', (td) => td.textContent)).toMatch(
        /^position \d+, pending \d+, projected \d+, limit 150$/,
      );
      await page.waitForSelector('#orders tbody tr[data-order-id]', WAIT);
      // Some market orders expire at the close of a daily bar's session; the page shows every fill there was.
      const filled = run.ops.hub.state().fills.length;
      expect(filled).toBeGreaterThanOrEqual(4);
      await page.waitForFunction(`document.querySelectorAll('#fills tbody tr[data-fill-id]').length === ${filled}`, undefined, WAIT);
      const canvas = await page.$eval('#equity-chart', (container) => {
        const canvases = [...container.querySelectorAll('canvas')];
        const largest = canvases.reduce((best, one) => (one.width * one.height > best.width * best.height ? one : best), canvases[0]!);
        const pixels = largest.getContext('2d')!.getImageData(0, 0, largest.width, largest.height).data;
        const colours = new Set<number>();
        for (let index = 0; index < pixels.length; index += 4 * 7)
          colours.add((pixels[index]! << 16) | (pixels[index + 1]! << 8) | pixels[index + 2]!);
        return { width: largest.width, colours: colours.size };
      });
      expect(canvas.width).toBeGreaterThan(300);
      expect(canvas.colours).toBeGreaterThan(2);
      expect(errors).toEqual([]);
      expect(foreign).toEqual([]);
      expect(run.logs.recent().filter((line) => line.level !== 'info')).toEqual([
        expect.objectContaining({
          level: 'warn',
          message: expect.stringMatching(/^denied: position \d+ in AAPL\.US would exceed maxPositionPerSymbol 150$/),
        }),
      ]);
      const file = process.env['DASHBOARD_SCREENSHOT'];
      if (file !== undefined && file !== '') {
        await page.$eval('#toast', (box) => box.setAttribute('hidden', ''));
        await page.screenshot({ path: file, fullPage: true });
      }
      await page.close();
    });

    it('cancels an open order from its row, and the order leaves the list once the venue has cancelled it', async () => {
      run = await startRunOps();
      const { harness, strategy } = run;
      await harness.step();
      strategy.emit((ctx) => ctx.buy(5, { price: 50 }));
      await harness.settle();
      const { page, errors } = await browser.open(run.pageUrl);
      const row = await page.waitForSelector('#orders tbody tr[data-order-id]', WAIT);
      const orderId = await row.getAttribute('data-order-id');
      expect(await row.$eval('td:nth-child(5)', (td) => td.textContent)).toBe('50');

      await page.click(`#orders tr[data-order-id="${orderId}"] button[data-action="cancel"]`);
      await page.waitForSelector('#toast:not([hidden])', WAIT);
      expect(await page.textContent('#toast')).toBe(`cancel of order ${orderId} sent`);
      await page.waitForSelector('#orders tbody td.empty', WAIT);

      expect(harness.sim.venue.orders().map((order) => order.status)).toEqual(['CanceledStatus']);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('flattens a position from its row after a second click, with a market order through risk and the executor', async () => {
      run = await startRunOps();
      const { harness, strategy } = run;
      await harness.step();
      strategy.emit((ctx) => ctx.buy(10));
      await harness.settle();
      await harness.step();
      const { page, errors } = await browser.open(run.pageUrl);
      const flatten = '#positions tr[data-symbol="AAPL.US"] button[data-action="flatten"]';
      await page.waitForSelector(flatten, WAIT);

      await page.click(flatten);
      expect(await page.textContent(flatten)).toBe('Click again to flatten');
      expect(harness.sim.venue.orders()).toHaveLength(1);
      // A live update redraws the row between the two clicks: the button stays armed.
      await page.$eval(flatten, (button) => button.setAttribute('data-drawn-before', ''));
      run.ops.hub.refresh();
      await page.waitForSelector(`${flatten}:not([data-drawn-before])`, WAIT);
      expect(await page.textContent(flatten)).toBe('Click again to flatten');
      await page.click(flatten);
      await harness.until(() => harness.sim.venue.orders().length === 2, 'the closing order');
      await harness.settle();
      await harness.step();

      await page.waitForSelector('#positions tbody td.empty', WAIT);
      await page.waitForSelector('#toast:not([hidden])', WAIT);
      expect(await page.textContent('#toast')).toBe('AAPL.US: closing order sent (see fills and denials for how it went)');
      expect(harness.sim.venue.orders().map((order) => [order.side, order.quantity.toFixed(), order.status])).toEqual([
        ['Buy', '10', 'FilledStatus'],
        ['Sell', '10', 'FilledStatus'],
      ]);
      expect(await page.$$eval('#fills tbody tr', (rows) => rows.length)).toBe(2);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('pauses the strategy (its intents are held back as PAUSED denials) and resumes it', async () => {
      run = await startRunOps();
      const { harness, strategy } = run;
      await harness.step();
      const { page, errors } = await browser.open(run.pageUrl);
      const pause = '#jobs tr[data-job="dip-buyer"] button[data-action="pause"]';
      await page.waitForSelector(pause, WAIT);

      await page.click(pause);
      await page.click(pause);
      await page.waitForSelector('#jobs tr[data-job="dip-buyer"][data-state="paused"]', WAIT);
      strategy.emit((ctx) => ctx.buy(10));
      await harness.settle();
      const denial = await page.waitForSelector('#denials tbody tr[data-code="PAUSED"]', WAIT);
      expect(await denial.$eval('td:nth-child(5)', (td) => td.textContent)).toBe('paused by hand');
      expect(harness.sim.venue.orders()).toHaveLength(0);

      await page.click('#jobs tr[data-job="dip-buyer"] button[data-action="resume"]');
      await page.waitForSelector('#jobs tr[data-job="dip-buyer"][data-state="running"]', WAIT);
      strategy.emit((ctx) => ctx.buy(10));
      await harness.settle();
      expect(harness.sim.venue.orders()).toHaveLength(1);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('trips the kill switch (open orders cancelled, new orders held back) and resets it', async () => {
      run = await startRunOps();
      const { harness, strategy } = run;
      await harness.step();
      strategy.emit((ctx) => ctx.buy(5, { price: 50 }));
      await harness.settle();
      const { page, errors } = await browser.open(run.pageUrl);
      await page.waitForSelector('#orders tbody tr[data-order-id]', WAIT);

      await page.fill('#kill-reason-input', 'market looks wrong');
      await page.click('#kill-trip');
      expect(await page.textContent('#kill-trip')).toBe('Click again to trip');
      await page.click('#kill-trip');
      await page.waitForSelector('#kill-switch[data-tripped="true"]', WAIT);
      expect(await page.textContent('#kill-reason')).toContain('dashboard: market looks wrong');
      await harness.settle();
      await page.waitForSelector('#orders tbody td.empty', WAIT);
      expect(harness.sim.venue.orders().map((order) => order.status)).toEqual(['CanceledStatus']);
      strategy.emit((ctx) => ctx.buy(10));
      await harness.settle();
      await page.waitForSelector('#denials tbody tr[data-code="KILL_SWITCH"]', WAIT);
      expect(harness.sim.venue.orders()).toHaveLength(1);

      await page.click('#kill-reset');
      await page.click('#kill-reset');
      await page.waitForSelector('#kill-switch[data-tripped="false"]', WAIT);
      strategy.emit((ctx) => ctx.buy(10));
      await harness.settle();
      expect(harness.sim.venue.orders()).toHaveLength(2);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('gives a wrong token nothing: the page asks for a token and shows no figure, every data request is refused', async () => {
      run = await startRunOps();
      await run.harness.step();
      const { page, requests } = await browser.open(`${run.ops.uiUrl}/#token=not-the-token`);
      await page.waitForSelector('body[data-state="locked"]', WAIT);

      expect(await page.isVisible('#token-error')).toBe(true);
      expect(await page.textContent('#token-error')).toBe('The token was refused.');
      expect(await page.isVisible('#content')).toBe(false);
      expect(await page.$$('[data-card]')).toEqual([]);
      expect(requests.filter((url) => url.includes('/api/'))).toEqual([`${run.ops.uiUrl}/api/events`]);
      const state = await page.evaluate(async () => {
        const response = await fetch('/api/state', { headers: { Authorization: 'Bearer not-the-token' } });
        return { status: response.status, body: await response.text() };
      });
      expect(state.status).toBe(401);
      expect(state.body).not.toContain('USD');

      await page.fill('#token-input', run.token);
      await page.click('#token-form button');
      await page.waitForSelector('body[data-state="ready"]', WAIT);
      await page.close();
    });

    it('read-only: shows everything with every action disabled, and the server refuses actions', async () => {
      run = await startRunOps({ readOnly: true });
      const { harness, strategy } = run;
      await harness.step();
      strategy.emit((ctx) => ctx.buy(5, { price: 50 }));
      await harness.settle();
      const { page } = await browser.open(run.pageUrl);
      await page.waitForSelector('#orders tbody tr[data-order-id]', WAIT);

      expect(await page.isVisible('#read-only')).toBe(true);
      expect(await page.isDisabled('#orders button[data-action="cancel"]')).toBe(true);
      expect(await page.isDisabled('#kill-trip')).toBe(true);
      expect(await page.isDisabled('#jobs button[data-action="pause"]')).toBe(true);
      const token = run.token;
      const answer = await page.evaluate(async (bearer) => {
        const response = await fetch('/api/kill-switch/trip', { method: 'POST', headers: { Authorization: `Bearer ${bearer}` } });
        return response.status;
      }, token);
      expect(answer).toBe(403);
      expect(run.control.killSwitch().tripped).toBe(false);
      await page.close();
    });
  },
);
