// Safe inlining into one HTML page: text, attributes, JSON data and whole scripts.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

/**
 * JSON for a <script type="application/json"> element: every "<" becomes \u003c, so no "</script>" or
 * "<!--" in the data can end or confuse the element; U+2028/2029 are escaped for older parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A script's source made safe inside <script>…</script>: "</script" can only appear in strings or regexes, where "<\/" means the same. */
export function scriptForInline(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1');
}

let library: Promise<string> | undefined;

/** The lightweight-charts standalone build (defines window.LightweightCharts), read once per process. */
export function chartLibrarySource(): Promise<string> {
  if (library === undefined) {
    const packageJson = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
    library = readFile(join(dirname(packageJson), 'dist', 'lightweight-charts.standalone.production.js'), 'utf8');
  }
  return library;
}

/** A file of report/assets/. */
export function assetSource(name: 'report.css' | 'report.js' | 'print-charts.js'): Promise<string> {
  return readFile(new URL(`./assets/${name}`, import.meta.url), 'utf8');
}
