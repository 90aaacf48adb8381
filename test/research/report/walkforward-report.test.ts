// The walk-forward report's windows show the objective the windows were optimised on, in and out of sample,
// and its page names the objective's in- and out-of-sample means beside the stitched curve's figures.
import { describe, expect, it } from 'vitest';
import { renderWalkForwardReport } from '../../../src/research/report/walkforward-report.js';
import type { WalkForwardResult } from '../../../src/research/walkforward.js';
import { syntheticOutcome } from '../../support/research/outcomes.js';

const DAY = 86_400_000;
const START = Date.UTC(2020, 0, 2, 5);

function result(): WalkForwardResult {
  const window = {
    window: { train: { from: START, to: START + 300 * DAY }, test: { from: START + 300 * DAY, to: START + 400 * DAY } },
    trials: 12,
    chosen: syntheticOutcome(1, { totalReturn: 0.125, sharpe: 1.5 }),
    test: syntheticOutcome(2, { totalReturn: -0.0625, sharpe: -0.75 }),
    testEquity: { times: [], equity: [] },
    pbo: null,
    excluded: {},
  };
  return {
    windows: [window],
    stitched: { times: [START + 300 * DAY, START + 400 * DAY], equity: [100, 93.75] },
    outOfSample: { totalReturn: -0.0625, cagr: -0.2, sharpe: -0.75, maxDrawdown: 0.1 },
    inSampleObjective: 0.125,
    outOfSampleObjective: -0.0625,
    interrupted: false,
  } as unknown as WalkForwardResult;
}

describe('walk-forward report', () => {
  it("shows each window's objective in and out of sample, and their means, for an objective other than sharpe", async () => {
    const page = await renderWalkForwardReport('made-up', result(), 'America/New_York', 'totalReturn');
    expect(page).toContain('<th class="number">IS totalReturn</th><th class="number">OOS totalReturn</th>');
    expect(page).toContain('<td class="number">0.1250</td><td class="number">-0.0625</td>');
    expect(page).not.toContain('IS sharpe');
    expect(page).toContain('totalReturn: in-sample mean 0.1250, out-of-sample mean -0.0625');
  });

  it('says, as the terminal does, which test run failed, which window held no position and over how many windows a mean is', async () => {
    const base = result();
    const [window] = base.windows;
    const failed = {
      ...window!,
      test: syntheticOutcome(3, { sharpe: null, exposure: 0, totalReturn: 0, failure: 'boom <b>bad</b> (at boom.ts:11:5)' }),
    };
    const unqualified = { ...window!, chosen: undefined, test: undefined, excluded: { 'strategy failed': 4 } };
    const page = await renderWalkForwardReport(
      'made-up',
      { ...base, windows: [window!, failed, unqualified] } as WalkForwardResult,
      'America/New_York',
      'sharpe',
    );
    const rows = page.slice(page.indexOf('<tbody>'), page.indexOf('</tbody>')).split('</tr>');
    expect(rows[1]).toContain('<div class="failed">the test run failed: boom &lt;b&gt;bad&lt;/b&gt; (at boom.ts:11:5)</div>');
    expect(rows[1]).toContain('<td class="number">— (no position held)</td>');
    expect(rows[0]).not.toContain('failed');
    expect(rows[2]).toContain('no trial qualified (strategy failed ×4): held cash');
    expect(page).toContain('out-of-sample mean -0.0625 (over 1 of 3 windows: the others have no figure)');
    expect(page).toContain('in-sample mean 0.1250 (over 2 of 3 windows: the others have no figure)');
  });

  it('says why a window has no out-of-sample figure when the data has no bar in its test window', async () => {
    const base = result();
    const gap = { ...base.windows[0]!, test: undefined };
    const page = await renderWalkForwardReport('made-up', { ...base, windows: [gap] } as WalkForwardResult, 'America/New_York', 'sharpe');
    const row = page.slice(page.indexOf('<tbody>'), page.indexOf('</tbody>'));
    expect(row).toContain('<td class="number">1.5000</td><td class="number">— (no bar in the test window)</td>');
  });
});
