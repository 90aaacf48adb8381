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
  const [library, css] = await Promise.all([chartLibrarySource(), assetSource('report.css')]);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<style>${css}
.heatmap td { text-align: right; font-variant-numeric: tabular-nums; padding: 2px 6px; }
.heatmap thead th + th { text-align: right; padding: 2px 6px; }
.heatmap td.best { outline: 2px solid #111; }
.scatter circle { fill: #2962ff; fill-opacity: 0.55; }
.scatter circle.best { fill: #e91e63; fill-opacity: 1; }
</style>
</head>
<body>
<main>
<header><h1>${escapeHtml(parts.title)}</h1><p>${escapeHtml(parts.subtitle)}</p></header>
${parts.body}
<footer>longport-trader research report · charts by <a href="https://www.tradingview.com/lightweight-charts/">TradingView Lightweight Charts™</a></footer>
</main>
<script>${scriptForInline(library)}</script>
<script type="application/json" id="report-data">${jsonForScript(parts.data)}</script>
<script>${scriptForInline(parts.script)}</script>
</body>
</html>
`;
}

/**
 * Draws `points` ({time, value}) as a line chart in #id (lightweight-charts), sized by its container's CSS and
 * showing the whole curve (at the library's default least bar spacing, 0.5 px, a 20-year daily curve showed
 * only its last nine years). The chart is window.report.equityChart, as in the backtest report.
 */
export const EQUITY_CHART_SCRIPT = `
function drawEquity(id, points) {
  var element = document.getElementById(id);
  var chart = LightweightCharts.createChart(element, {
    autoSize: true,
    layout: { attributionLogo: false },
    timeScale: { minBarSpacing: 0.001 },
  });
  var series = chart.addSeries(LightweightCharts.LineSeries, { color: '#2962ff', lineWidth: 2 });
  series.setData(points);
  chart.timeScale().fitContent();
  window.report = { equityChart: chart };
}
`;
