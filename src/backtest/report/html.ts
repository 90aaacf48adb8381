// The `--report` page: one self-contained HTML file (library, styles, script and data inlined; no network).
import { isIntraday } from '../../domain/period.js';
import { describeFailure } from '../../strategy/failure.js';
import type { BacktestRecord, ResultView } from '../result.js';
import { buildChartData } from './chart-data.js';
import { formatCount, formatLocal, formatMoney, periodText, symbolsText } from './format.js';
import { assetSource, chartLibrarySource, escapeHtml, jsonForScript, scriptForInline } from './inline.js';
import { metricRows, type MetricRow } from './metric-rows.js';
import { priceText } from './price-places.js';

const CARD_KEYS = ['totalReturn', 'cagr', 'sharpe', 'maxDrawdown', 'winRate', 'profitFactor', 'closedTrades'];
const TRADE_HEADERS = ['Symbol', 'Side', 'Qty', 'Entry', 'Price', 'Exit', 'Price', 'PnL', 'Return', 'Bars', 'Tags'];
const NUMERIC_TRADE_COLUMNS = new Set([2, 4, 6, 7, 8, 9]);

export async function renderReport(record: BacktestRecord, result: ResultView): Promise<string> {
  const [library, css, printCharts, script] = await Promise.all([
    chartLibrarySource(),
    assetSource('report.css'),
    assetSource('print-charts.js'),
    assetSource('report.js'),
  ]);
  const rows = metricRows(result);
  const intraday = isIntraday(result.dataPeriod);
  const span = result.start === null ? 'no bars' : `${formatLocal(result.start, intraday)} → ${formatLocal(result.end, intraday)}`;
  const subtitle = [
    symbolsText(result.symbols),
    periodText(result),
    span,
    `initial cash ${formatMoney(Number(result.initialCash))} ${result.currency}`,
  ].join(' · ');
  const title = `Backtest · ${result.strategy}`;
  const chart = buildChartData(record, result);
  const curveDrawn =
    chart.equity.of > chart.equity.value.length
      ? `; drawn: each stretch's highest, lowest and deepest of ${formatCount(chart.equity.of)} points`
      : '';

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${css}</style>
</head>
<body>
<main>
<header><h1>${escapeHtml(title)}</h1><p>${escapeHtml(subtitle)}</p>${failures(result)}</header>
<section class="cards">${rows
    .filter((row) => CARD_KEYS.includes(row.key))
    .map(card)
    .join('')}</section>
<section class="panel">
<div class="panel-head"><h2>Price and fills</h2><span class="hint" id="candles-joined"></span>${symbolSelector(result.symbols)}</div>
<div id="price-chart" class="chart"></div>
</section>
<section class="panel">
<div class="panel-head"><h2>Equity</h2><span class="hint">marked to market at each bar's close; baseline = initial cash${curveDrawn}</span></div>
<div id="equity-chart" class="chart equity"></div>
<div class="panel-head"><h2>Drawdown</h2><span class="hint">below the running peak</span></div>
<div id="drawdown-chart" class="chart drawdown"></div>
</section>
<div class="columns">
<section class="panel"><div class="panel-head"><h2>Metrics</h2></div><table id="metrics"><tbody>${rows.map(metricRow).join('')}</tbody></table></section>
<section class="panel">${settingsTable(result)}${openPositionsTable(result)}${activityTable(result)}</section>
</div>
<section class="panel">
<div class="panel-head"><h2>Trades (${result.trades.length})</h2><span class="hint">FIFO round trips; pnl net of commission and borrow fees, dividends included</span></div>
<div class="table-scroll"><table id="trades"><thead><tr>${TRADE_HEADERS.map((header, column) => `<th${NUMERIC_TRADE_COLUMNS.has(column) ? ' class="number"' : ''}>${header}</th>`).join('')}</tr></thead><tbody></tbody></table></div>
<div class="pager"><button id="trades-previous" type="button">Previous</button><span id="trades-page"></span><button id="trades-next" type="button">Next</button></div>
</section>
<footer>longport-trader backtest report · charts by <a href="https://www.tradingview.com/lightweight-charts/">TradingView Lightweight Charts™</a></footer>
</main>
<script>${scriptForInline(library)}</script>
<script>${scriptForInline(printCharts)}</script>
<script type="application/json" id="report-data">${jsonForScript(chart)}</script>
<script>${scriptForInline(script)}</script>
</body>
</html>
`;
}

function card(row: MetricRow): string {
  return `<div class="card" data-metric="${row.key}"><div class="label">${escapeHtml(row.label)}</div><div class="value ${row.tone}">${escapeHtml(row.value)}</div></div>`;
}

function metricRow(row: MetricRow): string {
  return `<tr data-metric="${row.key}"><th>${escapeHtml(row.label)}</th><td class="number ${row.tone}">${escapeHtml(row.value)}</td><td class="detail">${escapeHtml(row.detail)}</td></tr>`;
}

function symbolSelector(symbols: readonly string[]): string {
  if (symbols.length < 2) return `<span class="hint">${escapeHtml(symbols[0] ?? '')}</span>`;
  const options = symbols.map((symbol, index) => `<option value="${index}">${escapeHtml(symbol)}</option>`).join('');
  return `<label class="hint">Symbol <select id="symbol">${options}</select></label>`;
}

function settingsTable(result: ResultView): string {
  const entries = Object.entries(result.settings);
  if (entries.length === 0) return '';
  // null means "not given" (no commission rate, no risk file): said in words, not as a raw null.
  const rows = entries
    .map(([key, value]) =>
      value === null
        ? `<tr><th>${escapeHtml(key)}</th><td class="muted">not set</td></tr>`
        : `<tr><th>${escapeHtml(key)}</th><td>${escapeHtml(String(value))}</td></tr>`,
    )
    .join('');
  return `<div class="panel-head"><h2>Settings</h2></div><table id="settings"><tbody>${rows}</tbody></table><br>`;
}

function failures(result: ResultView): string {
  const intraday = isIntraday(result.dataPeriod);
  return result.failures
    .map((failure) => {
      const bar = failure.bar === null ? null : { ...failure.bar, time: formatLocal(failure.bar.time, intraday) };
      const text = describeFailure(failure.strategy, failure.source, failure.error, failure.location, bar);
      return `<p class="failed" id="failure">FAILED: ${escapeHtml(text)}. The run stopped at that bar.</p>`;
    })
    .join('');
}

/** Intents, orders, fills and denials, with each denial code's count and first message. */
function activityTable(result: ResultView): string {
  const { intents, orders, fills, denials } = result.counts;
  const head = `<br><div class="panel-head"><h2>Orders and denials</h2><span class="hint">${formatCount(intents)} intents · ${formatCount(orders)} orders · ${formatCount(fills)} fills · ${formatCount(denials)} denied</span></div>`;
  const codes = Object.entries(result.denialsByCode).sort(([, a], [, b]) => b - a);
  if (codes.length === 0) return `${head}<p class="muted">No denials.</p>`;
  const rows = codes
    .map(([code, count]) => {
      const first = result.denials.find((denial) => denial.code === code);
      return `<tr><th>${escapeHtml(code)}</th><td class="number">${formatCount(count)}</td><td class="detail">${escapeHtml(first?.message ?? '')}</td></tr>`;
    })
    .join('');
  return `${head}<table id="denials"><thead><tr><th>Code</th><th class="number">Count</th><th>First</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function openPositionsTable(result: ResultView): string {
  const head = '<div class="panel-head"><h2>Open at the end</h2><span class="hint">valued at the last close</span></div>';
  if (result.openPositions.length === 0) return `${head}<p class="muted">No open positions.</p>`;
  const rows = result.openPositions
    .map((position) => {
      const pnl = Number(position.unrealizedPnl);
      const tone = pnl > 0 ? 'positive' : pnl < 0 ? 'negative' : '';
      const price = (text: string): string => priceText(result, position.symbol, text);
      const cells = [position.symbol, position.side, position.quantity, price(position.averagePrice), price(position.markPrice)]
        .map((cell) => `<td>${escapeHtml(cell)}</td>`)
        .join('');
      return `<tr>${cells}<td class="number ${tone}">${escapeHtml(formatMoney(pnl))}</td></tr>`;
    })
    .join('');
  return `${head}<table id="open-positions"><thead><tr><th>Symbol</th><th>Side</th><th>Qty</th><th>Avg price</th><th>Mark</th><th class="number">Unrealised</th></tr></thead><tbody>${rows}</tbody></table>`;
}
