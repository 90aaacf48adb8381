// The walk-forward JSON document: the stitched curve's points carry their bar's market-local time.
import { describe, expect, it } from 'vitest';
import { parseObjective } from '../../src/research/objective.js';
import type { WalkForwardResult } from '../../src/research/walkforward.js';
import { walkForwardDocument } from '../../src/research/walkforward-document.js';

const RULES = { objective: parseObjective('sharpe'), constraints: [], minTrades: 0 };

/** A result whose stitched curve is `times`, equity rising by one a point. */
function resultOver(times: number[]): WalkForwardResult {
  return {
    windows: [],
    stitched: { times, equity: times.map((_, at) => 1_000_000 + at) },
    outOfSample: { totalReturn: 0, cagr: null, sharpe: null, maxDrawdown: 0 },
    inSampleObjective: null,
    outOfSampleObjective: null,
    interrupted: false,
  };
}

describe('the walk-forward JSON document', () => {
  it('tells the hourly points of one day apart by their New York time, across the change to summer time', () => {
    // 2021-03-12 15:30 EST, then 2021-03-15 09:30 and 10:30 EDT.
    const times = [Date.parse('2021-03-12T20:30:00Z'), Date.parse('2021-03-15T13:30:00Z'), Date.parse('2021-03-15T14:30:00Z')];
    const { stitched } = walkForwardDocument('sma', resultOver(times), RULES, 'America/New_York');
    expect(stitched).toEqual([
      { date: '2021-03-12', time: '2021-03-12T15:30:00-05:00', equity: 1_000_000 },
      { date: '2021-03-15', time: '2021-03-15T09:30:00-04:00', equity: 1_000_001 },
      { date: '2021-03-15', time: '2021-03-15T10:30:00-04:00', equity: 1_000_002 },
    ]);
  });

  it("dates a day bar by the market's day, not UTC's", () => {
    // Hong Kong's midnight is 16:00 UTC the day before.
    const { stitched } = walkForwardDocument('sma', resultOver([Date.parse('2020-07-01T16:00:00Z')]), RULES, 'Asia/Hong_Kong');
    expect(stitched).toEqual([{ date: '2020-07-02', time: '2020-07-02T00:00:00+08:00', equity: 1_000_000 }]);
  });
});
