// The optimize report's scatter: the objective against max drawdown, or against total return when max
// drawdown is the objective itself (drawdown against drawdown would be a diagonal line).
import { describe, expect, it } from 'vitest';
import { parseObjective } from '../../../src/research/objective.js';
import { OutcomeTable } from '../../../src/research/outcome-table.js';
import { rankTrials } from '../../../src/research/ranking.js';
import { renderOptimizeReport } from '../../../src/research/report/optimize-report.js';
import { syntheticOutcome } from '../../support/research/outcomes.js';

async function pageFor(objective: string): Promise<string> {
  const outcomes = new OutcomeTable();
  for (let index = 0; index < 12; index += 1) outcomes.add(syntheticOutcome(index, { totalReturn: index / 100, sharpe: index / 10 }));
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
    expect(page).toMatch(/<title>drawdown 0\.0250, sharpe 0\.1000<\/title>/);
    expect(page).toMatch(/>sharpe \(-?\d\.\d{3} … \d\.\d{3}\)<\/text>/);
  });

  it('plots max drawdown against total return when it is the objective', async () => {
    const page = await pageFor('maxDrawdown');
    expect(page).toContain('<h2>maxDrawdown against total return</h2>');
    // Trial 1: drawdown 1/40, total return 1/100.
    expect(page).toMatch(/<title>total return 0\.0100, maxDrawdown 0\.0250<\/title>/);
    expect(page).not.toMatch(/<title>drawdown /);
  });
});
