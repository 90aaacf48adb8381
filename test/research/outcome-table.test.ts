import { describe, expect, it } from 'vitest';
import { parseConstraint, parseObjective } from '../../src/research/objective.js';
import { OutcomeTable } from '../../src/research/outcome-table.js';
import { rankedOutcomes, rankTrials } from '../../src/research/ranking.js';
import { splitInput, splitInputOf } from '../../src/research/stats/pbo-splits.js';
import { syntheticOutcome as outcome } from '../support/research/outcomes.js';

describe('the outcome table', () => {
  it('gives back every outcome that went in, field for field (numbers, texts, booleans, nulls, ∞)', () => {
    const outcomes = Array.from({ length: 150 }, (_, index) => outcome(index));
    const table = OutcomeTable.of(outcomes);
    expect(table.length).toBe(150);
    expect([...table]).toEqual(outcomes);
    expect(table.at(3).metrics.profitFactor).toBe(Number.POSITIVE_INFINITY);
    expect(table.at(4).metrics.sharpe).toBeNull();
    expect(table.metric(4, 'sharpe')).toBeNull();
    expect(table.metric(5, 'sharpe')).toBe(Math.sin(5) * 2);
    expect(table.metric(5, 'maxDrawdownPeak')).toBeNull();
    expect(table.param(5, 'mode')).toBe('open');
    expect(table.param(6, 'short')).toBe(true);
    expect(table.paramNames()).toEqual(['fast', 'slow', 'mode', 'short']);
    expect(Object.keys(table.at(0).metrics)).toEqual(Object.keys(outcomes[0]!.metrics));
  });

  it('keeps a param of several types (numbers, then a text, then numbers again)', () => {
    const outcomes = [5, 'auto', 7.5, null, true, 5].map((window, index) => {
      const made = outcome(index);
      return { ...made, params: { ...made.params, window } } as typeof made;
    });
    const table = OutcomeTable.of(outcomes);
    expect([...table]).toEqual(outcomes);
    expect(table.param(2, 'window')).toBe(7.5);
    expect(table.param(1, 'window')).toBe('auto');
  });

  it('keeps a NaN metric as null, as the JSON of a result writes it', () => {
    const table = OutcomeTable.of([outcome(1, { sharpe: Number.NaN })]);
    expect(table.at(0).metrics.sharpe).toBeNull();
  });

  it('refuses an outcome that does not fit the first one', () => {
    const table = OutcomeTable.of([outcome(1)]);
    expect(() => table.add(outcome(2, { extra: 1 }))).toThrow(/params or metrics are not those/);
    expect(() => table.add(outcome(2, { sharpe: {} }))).toThrow(/sharpe: \[object Object\] is not a number, text or boolean/);
    const short = outcome(2);
    expect(() => table.add({ ...short, stats: { ...short.stats, blockSums: [1] } })).toThrow(/1 return blocks, the table's trials have 4/);
  });

  it('orders its rows by trial index, each row whole', () => {
    const outcomes = [5, 1, 9, 0, 3].map((index) => outcome(index));
    const sorted = OutcomeTable.of(outcomes);
    sorted.sortByIndex();
    expect(sorted.length).toBe(5);
    expect([...sorted]).toEqual([...outcomes].sort((a, b) => a.index - b.index));
    expect(sorted.statsAt(1).blockSums).toEqual(Float64Array.from(outcome(1).stats.blockSums));
  });

  it('lays out the block sums for CSCV as the list of return statistics does', () => {
    const outcomes = Array.from({ length: 9 }, (_, index) => outcome(index));
    const counts = [25, 25, 25, 25];
    const table = OutcomeTable.of(outcomes);
    expect(splitInputOf(table.length, counts, (row) => table.statsAt(row))).toEqual(
      splitInput(
        outcomes.map((one) => one.stats),
        counts,
      ),
    );
    expect(splitInputOf(table.length, counts, (row) => table.statsAt(row), true).sums.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([table.stat(5, 'mean'), table.stat(5, 'std')]).toEqual([outcomes[5]!.stats.mean, outcomes[5]!.stats.std]);
  });
});

describe('ranking the table', () => {
  const table = OutcomeTable.of(Array.from({ length: 40 }, (_, index) => outcome(index)));

  it('ranks by the objective, ties to the lower index, and counts what it leaves out and why', () => {
    const ranking = rankTrials(table, {
      objective: parseObjective('sharpe'),
      constraints: [parseConstraint('maxDrawdown<0.2')],
      minTrades: 1,
    });
    const ranked = rankedOutcomes(table, ranking);
    const expected = [...table]
      .filter((one) => one.metrics.closedTrades >= 1 && one.metrics.maxDrawdown < 0.2 && one.metrics.sharpe !== null)
      .sort((a, b) => b.metrics.sharpe! - a.metrics.sharpe! || a.index - b.index);
    expect(ranked).toEqual(expected);
    expect(ranking.excluded).toEqual({
      'fewer than 1 trades': 8,
      'maxDrawdown<0.2': [...table].filter((one) => one.metrics.closedTrades >= 1 && one.metrics.maxDrawdown >= 0.2).length,
      'no sharpe': [...table].filter((one) => one.metrics.closedTrades >= 1 && one.metrics.maxDrawdown < 0.2 && one.metrics.sharpe === null)
        .length,
    });
    expect(rankedOutcomes(table, ranking, 3)).toEqual(expected.slice(0, 3));
  });

  it('puts equal objectives in trial order, lowest first whichever way is best', () => {
    const tied = OutcomeTable.of([7, 2, 5].map((index) => outcome(index, { sharpe: 1.5 })));
    tied.sortByIndex();
    for (const direction of ['max', 'min'] as const) {
      const ranking = rankTrials(tied, { objective: { metric: 'sharpe', direction }, constraints: [], minTrades: 0 });
      expect(rankedOutcomes(tied, ranking).map((one) => one.index)).toEqual([2, 5, 7]);
    }
  });
});
