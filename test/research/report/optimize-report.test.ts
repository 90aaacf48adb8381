// The optimize report's scatter: the objective against max drawdown, or against total return when max
// drawdown is the objective itself (drawdown against drawdown would be a diagonal line), on round ticks, each
// point titled with its trial's params.
import { describe, expect, it } from 'vitest';
import { parseObjective } from '../../../src/research/objective.js';
import { OutcomeTable } from '../../../src/research/outcome-table.js';
import { rankTrials } from '../../../src/research/ranking.js';
import { renderOptimizeReport } from '../../../src/research/report/optimize-report.js';
import { syntheticOutcome } from '../../support/research/outcomes.js';

async function pageFor(objective: string, mode = (index: number): string => (index % 2 === 0 ? 'close' : 'open')): Promise<string> {
  const outcomes = new OutcomeTable();
  for (let index = 0; index < 12; index += 1) {
    const made = syntheticOutcome(index, { totalReturn: index / 100, sharpe: index / 10 });
    outcomes.add({ ...made, params: { ...made.params, mode: mode(index) } });
  }
  const rules = { objective: parseObjective(objective), constraints: [], minTrades: 0 };
  const result = {
    plan: { trials: [], skipped: [], spaceSize: outcomes.length },
    outcomes,
    ranking: rankTrials(outcomes, rules),
    overfitting: { pbo: null, deflatedSharpe: null },
    interrupted: false,
    stopped: false,
  };
  return renderOptimizeReport({ strategy: 'made-up', result, rules, bestEquity: [] });
}

describe('optimize report scatter', () => {
  it('plots the objective against max drawdown', async () => {
    const page = await pageFor('sharpe');
    expect(page).toContain('<h2>sharpe against max drawdown</h2>');
    expect(page).toContain('>max drawdown</text>');
    expect(page).toContain('>sharpe</text>');
  });

  it("titles each point with its trial's params and figures", async () => {
    const page = await pageFor('sharpe');
    // Trial 1: fast 1, slow 21, drawdown 1/40, sharpe 1/10.
    expect(page).toContain('<title>fast=1 slow=21 mode=open short=false · drawdown 0.0250, sharpe 0.100</title>');
  });

  it('marks round ticks on both axes, with gridlines', async () => {
    const page = await pageFor('sharpe');
    // Drawdown 0 … 0.225 and sharpe 0 … 1.1.
    const labels = [...page.matchAll(/<text x="[\d.]+" y="[\d.]+"(?: dy="[\d.]+em")? text-anchor="(?:middle|end)">([^<]*)<\/text>/g)].map(
      (match) => match[1],
    );
    expect(labels).toEqual(['0.00', '0.05', '0.10', '0.15', '0.20', '0.25', '0.0', '0.2', '0.4', '0.6', '0.8', '1.0', '1.2']);
    expect(page.match(/<g class="grid">(.*?)<\/g>/)![1]!.match(/<line /g)).toHaveLength(labels.length);
  });

  it('writes a param value with markup in a title as text', async () => {
    const page = await pageFor('sharpe', (index) => (index % 2 === 0 ? '<b>bold</b>' : '</title><svg onload=alert(1)>'));
    expect(page).toContain('mode=&lt;b&gt;bold&lt;/b&gt;');
    expect(page).toContain('mode=&lt;/title&gt;&lt;svg onload=alert(1)&gt;');
    expect(page).not.toContain('<b>bold');
    expect(page).not.toContain('<svg onload');
  });

  it('plots max drawdown against total return when it is the objective', async () => {
    const page = await pageFor('maxDrawdown');
    expect(page).toContain('<h2>maxDrawdown against total return</h2>');
    // Trial 1: drawdown 1/40, total return 1/100.
    expect(page).toMatch(/<title>[^<]* · total return 0\.0100, maxDrawdown 0\.0250<\/title>/);
    expect(page).not.toMatch(/ · drawdown /);
  });
});
