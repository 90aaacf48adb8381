// `trader schedule` with `ui: true` through the real binary in paper mode, driven from the dashboard in
// headless Chromium: the page on the health port (which still answers probes without the token), a job run
// now, its resting order cancelled, a position flattened, a job paused and resumed, and the kill switch
// tripped and reset; the journal and the paper account agree afterwards. Telegram (the config's telegram:
// key, a fake Bot API on 127.0.0.1) is a channel beside it: fills told, /status answered, its token unlogged.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paperAccountFile } from '../../src/cli/run/flags.js';
import { BROWSER_START_MS } from '../support/backtest/chromium.js';
import { chromiumMissing, launchDashboardBrowser, type DashboardBrowser } from '../support/ops/browser.js';
import { FakeTelegram } from '../support/ops/fake-telegram.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnTrader, type RunningTrader } from '../support/run/spawn-run.js';
import { expectJournalMatchesVenue, ledgerOfStateFile } from '../support/schedule/ledger-check.js';
import { BUY_ON_QUOTE } from '../support/schedule/runner-harness.js';
import { minuteCandles, US, writeCandleFolder } from '../support/sim/candles.js';

const WAIT = { timeout: 30_000 };
const children: RunningTrader[] = [];
const BOT_TOKEN = '555000111:AAschedule-bot-token-never-logged';
const CHAT = 777;
let telegram: FakeTelegram | undefined;

describe.skipIf(chromiumMissing !== undefined)(
  `trader schedule's dashboard in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let browser: DashboardBrowser;
    beforeAll(async () => {
      browser = await launchDashboardBrowser();
    }, BROWSER_START_MS);
    afterAll(async () => {
      await browser?.close();
    });
    afterEach(async () => {
      for (const child of children.splice(0))
        if (child.child.exitCode === null && child.child.signalCode === null) await child.signal('SIGKILL');
      await telegram?.close();
      telegram = undefined;
      await removeTempFolders();
    });

    it('runs, cancels, flattens, pauses and halts jobs from the page, end to end against the simulator', async () => {
      const folder = await tempFolder();
      telegram = new FakeTelegram(BOT_TOKEN);
      const fake = telegram;
      const apiRoot = await telegram.start();
      const data = await writeCandleFolder([minuteCandles(US)]);
      const stateDir = join(folder, 'state');
      const config = join(folder, 'schedule.yaml');
      // Both jobs fire only at 03:00: here they run when the page says so.
      await writeFile(
        config,
        `mode: paper
stateDir: ${stateDir}
paper: { data: ${data}, speed: 30 }
healthPort: 0
ui: true
telegram: { chats: [${CHAT}], apiRoot: "${apiRoot}" }
jobs:
  - name: bidder
    strategy: ${BUY_ON_QUOTE}
    symbols: [${US}]
    params: { quantity: 5, limit: 100 }
    cron: "0 0 3 * * *"
    days: all
  - name: taker
    strategy: ${BUY_ON_QUOTE}
    symbols: [${US}]
    params: { quantity: 7 }
    cron: "0 0 3 * * *"
    days: all
`,
      );
      const trader = spawnTrader(['schedule', config, '--json-logs'], { TELEGRAM_BOT_TOKEN: BOT_TOKEN });
      children.push(trader);
      const line = await trader.waitForLog('"msg":"dashboard at', 60_000);
      const url = /dashboard at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1]!;
      await trader.waitForLog('"msg":"schedule running');
      const token = readFileSync(join(stateDir, 'ui-token'), 'utf8').trim();

      const probe = await request(`${url}/health`);
      expect(probe.statusCode).toBe(200);
      expect(await probe.body.json()).toEqual({ healthy: true });

      const { page, errors, foreign } = await browser.open(`${url}/#token=${token}`);
      await page.waitForSelector('body[data-state="ready"]', WAIT);
      expect(await page.textContent('#bot-subtitle')).toContain('trader schedule');
      const job = (name: string) => `#jobs tr[data-job="${name}"]`;
      // Next fire and last result: the cron time to come, nothing run yet.
      expect(await page.textContent(`${job('taker')} td:nth-child(3)`)).toBe('idle');
      expect(await page.textContent(`${job('taker')} td:nth-child(4)`)).toMatch(/^cron \w+ \d\d, \d\d:00:00$/);
      expect(await page.textContent(`${job('taker')} td:nth-child(5)`)).toBe('');

      // Run now: the bidder's limit order rests; cancel it from its row.
      await page.click(`${job('bidder')} button[data-action="run"]`);
      const order = await page.waitForSelector('#orders tbody tr[data-order-id]', WAIT);
      expect(await order.$eval('td:nth-child(8)', (td) => td.textContent)).toMatch(/^bidder-/);
      await order.$eval('button[data-action="cancel"]', (button) => (button as { click(): void }).click());
      await page.waitForSelector('#orders tbody td.empty', WAIT);

      // Run now: the taker buys at market; flatten the position from its row.
      await page.click(`${job('taker')} button[data-action="run"]`);
      const flatten = `#positions tr[data-symbol="${US}"] button[data-action="flatten"]`;
      await page.waitForSelector(flatten, WAIT);
      await page.waitForSelector('#fills tbody tr[data-fill-id]', WAIT);
      const told = await fake.waitForMessage(CHAT, (text) => text.startsWith('✅ fill: taker: '));
      expect(told.text).toMatch(new RegExp(`^✅ fill: taker: Buy 7 ${US.replace('.', '\\.')} @ `));
      fake.type(CHAT, '/status');
      const status = await fake.waitForMessage(CHAT, (text) => text.startsWith('schedule '));
      expect(status.text).toContain('job taker: ');
      await page.click(flatten);
      await page.click(flatten);
      await page.waitForSelector('#positions tbody td.empty', WAIT);

      // Pause a job (its run stops), resume it.
      await page.click(`${job('bidder')} button[data-action="run"]`);
      await page.waitForSelector(`${job('bidder')}[data-state="running"]`, WAIT);
      await page.click(`${job('bidder')} button[data-action="pause"]`);
      await page.click(`${job('bidder')} button[data-action="pause"]`);
      await page.waitForSelector(`${job('bidder')}[data-state="paused"]`, WAIT);
      await page.waitForSelector('#orders tbody td.empty', WAIT);
      await page.click(`${job('bidder')} button[data-action="resume"]`);
      await page.waitForSelector(`${job('bidder')}[data-state="idle"]`, WAIT);
      expect(await page.textContent(`${job('bidder')} td:nth-child(5)`)).toMatch(/^(completed|stopped) \w+ \d\d, \d\d:\d\d:\d\d/);

      // The kill switch halts every job for the day; reset lets them run again.
      await page.click('#kill-trip');
      await page.click('#kill-trip');
      await page.waitForSelector('#kill-switch[data-tripped="true"]', WAIT);
      await page.waitForSelector(`${job('taker')}[data-state="halted"]`, WAIT);
      expect((await request(`${url}/health`)).statusCode).toBe(503);
      await page.click('#kill-reset');
      await page.click('#kill-reset');
      await page.waitForSelector('#kill-switch[data-tripped="false"]', WAIT);
      await page.waitForSelector(`${job('taker')}[data-state="idle"]`, WAIT);

      expect(errors).toEqual([]);
      expect(foreign).toEqual([]);
      await page.close();
      const exit = await trader.signal('SIGTERM');
      expect(exit).toEqual({ code: 0, signal: null });
      const journal = join(stateDir, 'paper-journal.sqlite');
      const venue = ledgerOfStateFile(paperAccountFile(journal));
      expectJournalMatchesVenue(journal, venue);
      expect(venue.orders.map((one) => [one.remark.split('-')[0], one.status, one.executedQuantity])).toEqual([
        ['bidder', 'CanceledStatus', '0'],
        ['taker', 'FilledStatus', '7'],
        ['lt', 'FilledStatus', '7'],
        ['bidder', 'CanceledStatus', '0'],
      ]);
      expect(trader.stderr()).not.toContain(token);
      expect(trader.stderr()).not.toContain(BOT_TOKEN.split(':')[1]);
    }, 180_000);
  },
);
