// The dashboard page's files, served by the process itself (no network): the page, its script and styles
// (src/ops/page/) and the lightweight-charts standalone build from node_modules. Read once, kept in memory.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Asset {
  readonly body: Buffer;
  readonly contentType: string;
}

const PAGE_FILES: Readonly<Record<string, { readonly file: string; readonly contentType: string }>> = {
  '/': { file: 'dashboard.html', contentType: 'text/html; charset=utf-8' },
  '/assets/dashboard.js': { file: 'dashboard.js', contentType: 'text/javascript; charset=utf-8' },
  '/assets/dashboard.css': { file: 'dashboard.css', contentType: 'text/css; charset=utf-8' },
};

const CHARTS = '/assets/lightweight-charts.js';

const cache = new Map<string, Promise<Asset>>();

/** The asset served at `path`, or undefined when there is none. */
export function assetAt(path: string): Promise<Asset> | undefined {
  const known = cache.get(path);
  if (known !== undefined) return known;
  let loading: Promise<Asset> | undefined;
  const page = PAGE_FILES[path];
  if (page !== undefined)
    loading = readFile(new URL(`../page/${page.file}`, import.meta.url)).then((body) => ({ body, contentType: page.contentType }));
  else if (path === CHARTS) {
    const packageJson = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
    loading = readFile(join(dirname(packageJson), 'dist', 'lightweight-charts.standalone.production.js')).then((body) => ({
      body,
      contentType: 'text/javascript; charset=utf-8',
    }));
  }
  if (loading === undefined) return undefined;
  cache.set(path, loading);
  loading.catch(() => cache.delete(path));
  return loading;
}
