// The shell of the research report pages: one self-contained HTML file (chart library, styles, script and
// data inlined, no network), in the look of the backtest report.
import { assetSource, chartLibrarySource, escapeHtml, jsonForScript, scriptForInline } from '../../backtest/report/inline.js';

export interface PageParts {
  readonly title: string;
  readonly subtitle: string;
  readonly body: string;
  readonly data: unknown;
  /** The page's own script (reads #report-data, sets body[data-rendered] when drawn). */
  readonly script: string;
}

export async function renderPage(parts: PageParts): Promise<string> {
  const [library, css, printCharts] = await Promise.all([chartLibrarySource(), assetSource('report.css'), assetSource('print-charts.js')]);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<style>${css}${RESEARCH_CSS}</style>
</head>
<body>
<main>
<header><h1>${escapeHtml(parts.title)}</h1><p>${escapeHtml(parts.subtitle)}</p></header>
${parts.body}
<footer>longport-trader research report · charts by <a href="https://www.tradingview.com/lightweight-charts/">TradingView Lightweight Charts™</a></footer>
</main>
<script>${scriptForInline(library)}</script>
<script>${scriptForInline(printCharts)}</script>
<script type="application/json" id="report-data">${jsonForScript(parts.data)}</script>
<script>${scriptForInline(parts.script)}</script>
</body>
</html>
`;
}

// The heatmap's colours are light in both schemes, so its numbers stay dark; the rest follows report.css.
const RESEARCH_CSS = `
.heatmap { width: auto; min-width: 100%; }
.heatmap th, .heatmap td { padding: 3px 5px; font-size: 12px; }
.heatmap td { text-align: right; }
.heatmap td.cell { color: #1d2330; }
.heatmap td.empty { background: var(--grid); }
.heatmap td.cell.left-out { color: var(--muted); text-align: center; }
.heatmap td.refused, .heat-holes .swatch.refused { background: repeating-linear-gradient(135deg, var(--grid) 0 4px, var(--border) 4px 6px); }
.heat-holes { color: var(--muted); font-size: 12px; margin: 6px 0 0; }
.heat-holes .swatch { display: inline-block; min-width: 22px; height: 14px; line-height: 14px; text-align: center; vertical-align: middle; background: var(--grid); border-radius: 2px; }
.heatmap thead th + th { text-align: right; }
.heatmap th:first-child { position: sticky; left: 0; background: var(--surface); }
.heatmap td.best { outline: 2px solid var(--text); outline-offset: -2px; }
.legend { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-top: 10px; font-size: 12px; font-variant-numeric: tabular-nums; }
.legend .ramp { position: relative; width: 280px; height: 16px; border-radius: 2px; }
.legend .mark { position: absolute; top: 0; font-size: 10px; line-height: 16px; color: #1d2330; border-left: 1px solid #1d2330; padding-left: 2px; white-space: nowrap; }
.legend .hint { color: var(--muted); }
.scatter text { fill: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
.scatter text.axis-title { fill: var(--text); font-size: 13px; }
.scatter .grid line { stroke: var(--grid); }
.scatter .axis { fill: none; stroke: var(--border); }
.scatter circle { fill: var(--accent); fill-opacity: 0.55; }
.scatter circle.best { fill: #e91e63; fill-opacity: 1; }
.heat-print { display: none; }
/* Printed (or saved as PDF), after report.css's print rules: the heatmap in blocks of columns (the page script
   makes them, setting --heat-columns and --heat-chars, the longest text), each within the paper's width, its type
   as large as its columns allow, a cell wrapping rather than spilling; its colours printed even with the
   browser's background graphics off; no selectors or hover hints. */
@media print {
  .heat-scroll { display: none; }
  .heat-print { display: block; container-type: inline-size; }
  .heat-print .heatmap { table-layout: fixed; width: 100%; min-width: 0; }
  .heat-print .heatmap + .heatmap { margin-top: 10px; }
  .heat-print caption { text-align: left; color: var(--muted); font-size: 11px; padding-bottom: 2px; }
  .heatmap th, .heatmap td {
    padding: 1px 2px; white-space: normal; overflow-wrap: anywhere;
    font-size: clamp(4px, calc((100cqw / var(--heat-columns, 1) - 4px) / (var(--heat-chars, 4) * 0.6)), 11px);
  }
  .heatmap td, .legend .ramp, .heat-holes .swatch { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .control, .screen-only { display: none; }
}
#windows .failed { color: var(--negative); font-size: 12px; white-space: normal; }
#windows td.chosen { white-space: normal; overflow-wrap: anywhere; min-width: 10em; }
`;

/**
 * Draws `points` ({time, value}) as a line chart in #id (lightweight-charts), sized by its container's CSS and
 * showing the whole curve (at the library's default least bar spacing, 0.5 px, a 20-year daily curve showed
 * only its last nine years). Themed and formatted as the backtest report's equity (report.js): colours from
 * the CSS variables, again when the system turns light or dark, and light on paper (print-charts.js); money
 * grouped, "1,060,000". The chart is window.report.equityChart, as in the backtest report.
 */
export const EQUITY_CHART_SCRIPT = `
function cssVar(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }
function chartTheme() {
  return {
    layout: { attributionLogo: false, background: { type: 'solid', color: cssVar('--surface') }, textColor: cssVar('--muted'),
      fontFamily: getComputedStyle(document.body).fontFamily },
    grid: { vertLines: { color: cssVar('--grid') }, horzLines: { color: cssVar('--grid') } },
    rightPriceScale: { borderColor: cssVar('--border') },
    timeScale: { borderColor: cssVar('--border') },
  };
}
var money = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
function drawEquity(id, points) {
  var chart = LightweightCharts.createChart(document.getElementById(id), Object.assign({ autoSize: true }, chartTheme()));
  // Set once, not with the colours: minBarSpacing set again while printing crashed the renderer.
  chart.timeScale().applyOptions({ minBarSpacing: 0.001 });
  var series = chart.addSeries(LightweightCharts.LineSeries, {
    color: cssVar('--accent'), lineWidth: 2,
    priceFormat: { type: 'custom', formatter: function (value) { return money.format(value); }, minMove: 0.01 },
  });
  series.setData(points);
  chart.timeScale().fitContent();
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', function () {
    chart.applyOptions(chartTheme());
    series.applyOptions({ color: cssVar('--accent') });
  });
  printCharts([chart], chartTheme);
  window.report = { equityChart: chart };
}
`;
