// The `trader walkforward --report` page: the stitched out-of-sample equity and the windows with their
// chosen parameters and in- and out-of-sample objective.
import { localTime } from '../../backtest/report/local-time.js';
import { escapeHtml } from '../../backtest/report/inline.js';
import type { ObjectiveName } from '../objective.js';
import type { WalkForwardResult } from '../walkforward.js';
import { windowLabel } from '../window-dates.js';
import { chosenText, figureText, meansOverText, testFailure, testFigure, windowFigure } from '../window-text.js';
import { EQUITY_CHART_SCRIPT, renderPage } from './page.js';

const SCRIPT = `${EQUITY_CHART_SCRIPT}
var data = JSON.parse(document.getElementById('report-data').textContent);
if (data.stitched.length > 0) drawEquity('equity-chart', data.stitched);
document.body.setAttribute('data-rendered', 'true');
`;

/** `metric`: the objective the windows were optimised on, shown in and out of sample per window. */
export async function renderWalkForwardReport(
  strategy: string,
  result: WalkForwardResult,
  zone: string,
  metric: ObjectiveName,
): Promise<string> {
  const local = localTime(zone);
  const date = (time: number): string => local.iso(time).slice(0, 10);
  // The same words as the terminal's table: "— (no position held)", why no trial qualified, the test run's failure.
  const rows = result.windows
    .map((window) => {
      const failed = testFailure(window);
      const failure = failed === undefined ? '' : `<div class="failed">the test run failed: ${escapeHtml(failed)}</div>`;
      return `<tr${failed === undefined ? '' : ' class="test-failed"'}><td>${windowLabel(window.window.train, date)}</td><td>${windowLabel(window.window.test, date)}</td><td class="chosen">${escapeHtml(chosenText(window))}${failure}</td><td class="number">${escapeHtml(windowFigure(window.chosen?.metrics, metric))}</td><td class="number">${escapeHtml(testFigure(window, metric))}</td><td class="number">${figureText(window.test?.metrics.totalReturn)}</td></tr>`;
    })
    .join('');
  const oos = result.outOfSample;
  const { inSample, outOfSample } = meansOverText(result, metric);
  return renderPage({
    title: `Walk-forward · ${strategy}`,
    subtitle: `${result.windows.length} windows · ${metric}: in-sample mean ${figureText(result.inSampleObjective)}${inSample}, out-of-sample mean ${figureText(result.outOfSampleObjective)}${outOfSample} · stitched out-of-sample: total return ${figureText(oos.totalReturn)}, cagr ${figureText(oos.cagr)}, sharpe ${figureText(oos.sharpe)}, max drawdown ${figureText(oos.maxDrawdown)}`,
    body: `<section class="panel"><div class="panel-head"><h2>Stitched out-of-sample equity</h2><span class="hint">each test window, up to where the next one starts, continues from the previous one's end</span></div><div id="equity-chart" class="chart equity"></div></section>
<section class="panel"><div class="panel-head"><h2>Windows</h2></div><table id="windows"><thead><tr><th>Train (first..last day)</th><th>Test (first..last day)</th><th>Chosen</th><th class="number">IS ${metric}</th><th class="number">OOS ${metric}</th><th class="number">OOS return</th></tr></thead><tbody>${rows}</tbody></table></section>`,
    data: {
      stitched: result.stitched.times.map((time, index) => ({ time: local.chartSeconds(time), value: result.stitched.equity[index]! })),
    },
    script: SCRIPT,
  });
}
