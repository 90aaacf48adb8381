// Opens a report page in Debian's headless Chromium with the network cut off, recording requests and errors.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const chromiumMissing = existsSync(CHROMIUM_PATH)
  ? undefined
  : `${CHROMIUM_PATH} is not installed (apt-get install chromium; .ci/run does it)`;

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface OpenedPage {
  readonly page: Page;
  /** Every request the page made, the page's own file URL included; only that one is let through. */
  readonly requests: readonly string[];
  /** Console errors and uncaught page errors. */
  readonly errors: readonly string[];
}

export interface Browser {
  open(file: string): Promise<OpenedPage>;
  close(): Promise<void>;
}

/**
 * How long a hook may take to start Chromium: its first start on a fresh machine (CI just installed it) or
 * on a loaded one takes far longer than a test's usual 30 s.
 */
export const BROWSER_START_MS = 120_000;

/** One browser with a fresh, empty profile; close() removes the profile. */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'report-chromium-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: ARGS,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const opened = context;
  return {
    async open(file) {
      const page = await opened.newPage();
      const requests: string[] = [];
      const errors: string[] = [];
      const own = pathToFileURL(file).href;
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.route('**/*', (route) => (route.request().url() === own ? route.continue() : route.abort()));
      await page.goto(own);
      return { page, requests, errors };
    },
    async close() {
      await opened.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** After the page's next rendering update, where media query changes are reported to their listeners. */
export const nextFrame = (page: Page): Promise<void> =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        (globalThis as unknown as { requestAnimationFrame(callback: () => void): void }).requestAnimationFrame(() => resolve()),
      ),
  );
