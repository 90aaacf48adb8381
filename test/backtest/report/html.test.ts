import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/backtest/report/html.js';
import { chartLibrarySource, escapeHtml, jsonForScript, scriptForInline } from '../../../src/backtest/report/inline.js';
import { buildResult } from '../../../src/backtest/report/result-builder.js';
import { randomWalkBars, simulateRun, SPY } from '../../support/backtest/fixtures.js';

describe('inlining', () => {
  it('keeps data from closing its script element', () => {
    const text = jsonForScript({ name: '</script><script>alert(1)</script><!--', line: '\u2028' });
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script><!--', line: '\u2028' });
  });

  it('keeps an inlined script from closing its element', () => {
    expect(scriptForInline('var s = "</script>"; var r = /<\\/SCRIPT>/;')).toBe('var s = "<\\/script>"; var r = /<\\/SCRIPT>/;');
  });

  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('report page', () => {
  it('inlines the chart library and needs nothing from the network', async () => {
    const record = simulateRun(new Map([[SPY, randomWalkBars(50)]]), [{ bar: 3, side: 'Buy', quantity: 10 }]);
    const html = await renderReport(record, buildResult(record));
    const library = await chartLibrarySource();

    expect(library).toContain('LightweightCharts');
    expect(html.includes(scriptForInline(library))).toBe(true);
    expect(/<(script|link|img|iframe)[^>]+(src|href)=/i.test(html)).toBe(false);
    expect(/@import|url\(\s*['"]?(https?:)?\/\//i.test(html)).toBe(false);
  });

  it('stays small for 5,000 daily bars: a few hundred KB besides the library', async () => {
    const bars = randomWalkBars(5000, { seed: 3 });
    const orders = Array.from({ length: 120 }, (_, trade) => [
      { bar: 40 * trade + 5, side: 'Buy' as const, quantity: 100 },
      { bar: 40 * trade + 25, side: 'Sell' as const, quantity: 100 },
    ]).flat();
    const record = simulateRun(new Map([[SPY, bars]]), orders, { commissionRate: '0.001' });
    const html = await renderReport(record, buildResult(record));
    const library = await chartLibrarySource();

    const ownBytes = Buffer.byteLength(html) - Buffer.byteLength(library);
    expect(ownBytes).toBeLessThan(450_000);
  });
});
