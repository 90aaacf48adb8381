// Opens dashboard pages in Debian's headless Chromium: only the dashboard's own origin is reachable (any
// other request is aborted and recorded, so a page that needs the network fails its test).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../backtest/chromium.js';

export { chromiumMissing } from '../backtest/chromium.js';

export interface DashboardPage {
  readonly page: Page;
  /** Every request the page made. */
  readonly requests: readonly string[];
  /** Requests to anywhere but the dashboard (all refused). */
  readonly foreign: readonly string[];
  /** Console errors and uncaught page errors. */
  readonly errors: readonly string[];
}

export interface DashboardBrowser {
  open(url: string): Promise<DashboardPage>;
  close(): Promise<void>;
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchDashboardBrowser(): Promise<DashboardBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'dashboard-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: ARGS,
      headless: true,
      viewport: { width: 1320, height: 1000 },
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    async open(url) {
      const origin = new URL(url).origin;
      const page = await context.newPage();
      const requests: string[] = [];
      const foreign: string[] = [];
      const errors: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => {
        // A refused token is an expected 401 the browser reports on its console.
        if (message.type() === 'error' && !message.text().includes('401')) errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.route('**/*', (route) => {
        if (new URL(route.request().url()).origin === origin) return route.continue();
        foreign.push(route.request().url());
        return route.abort();
      });
      await page.goto(url);
      return { page, requests, foreign, errors };
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
