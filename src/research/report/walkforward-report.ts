// The `trader walkforward --report` page: the stitched out-of-sample equity and the windows with their
// chosen parameters and in- and out-of-sample objective.
import { localTime } from '../../backtest/report/local-time.js';
import { escapeHtml } from '../../backtest/report/inline.js';
import type { ObjectiveName } from '../objective.js';
import type { TrialOutcome } from '../trial.js';
import type { WalkForwardResult } from '../walkforward.js';
import { windowLabel } from '../window-dates.js';
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
  const number = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : value.toFixed(4));
  const objective = (outcome: TrialOutcome | undefined): number | null | undefined => outcome?.metrics[metric] as number | null | undefined;
  const rows = result.windows
    .map(
      (window) =>
        `<tr><td>${windowLabel(window.window.train, date)}</td><td>${windowLabel(window.window.test, date)}</td><td>${escapeHtml(
          window.chosen === undefined
            ? 'no trial qualified: held cash'
            : Object.entries(window.chosen.params)
                .map(([key, value]) => `${key}=${value}`)
                .join(' '),
        )}</td><td class="number">${number(objective(window.chosen))}</td><td class="number">${number(objective(window.test))}</td><td class="number">${number(window.test?.metrics.totalReturn)}</td></tr>`,
    )
    .join('');
  const oos = result.outOfSample;
  return renderPage({
    title: `Walk-forward · ${strategy}`,
    subtitle: `${result.windows.length} windows · ${metric}: in-sample mean ${number(result.inSampleObjective)}, out-of-sample mean ${number(result.outOfSampleObjective)} · stitched out-of-sample: total return ${number(oos.totalReturn)}, cagr ${number(oos.cagr)}, sharpe ${number(oos.sharpe)}, max drawdown ${number(oos.maxDrawdown)}`,
    body: `<section class="panel"><div class="panel-head"><h2>Stitched out-of-sample equity</h2><span class="hint">each test window, up to where the next one starts, continues from the previous one's end</span></div><div id="equity-chart" class="chart equity"></div></section>
<section class="panel"><div class="panel-head"><h2>Windows</h2></div><table id="windows"><thead><tr><th>Train (first..last day)</th><th>Test (first..last day)</th><th>Chosen</th><th class="number">IS ${metric}</th><th class="number">OOS ${metric}</th><th class="number">OOS return</th></tr></thead><tbody>${rows}</tbody></table></section>`,
    data: {
      stitched: result.stitched.times.map((time, index) => ({ time: local.chartSeconds(time), value: result.stitched.equity[index]! })),
    },
    script: SCRIPT,
  });
}
