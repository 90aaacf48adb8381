// The walk-forward result as `--json` writes it: each window by its first and last day, its chosen params
// and figures, and the stitched out-of-sample curve, each point at its bar's market-local time.
import { localTime } from '../backtest/report/local-time.js';
import type { RankingRules } from './ranking.js';
import type { WalkForwardResult } from './walkforward.js';
import { windowDates } from './window-dates.js';

export function walkForwardDocument(strategy: string, result: WalkForwardResult, rules: RankingRules, zone: string) {
  const { iso } = localTime(zone);
  const date = (time: number): string => iso(time).slice(0, 10);
  return {
    version: 1,
    strategy,
    objective: rules.objective,
    inSampleObjective: result.inSampleObjective,
    outOfSampleObjective: result.outOfSampleObjective,
    outOfSample: result.outOfSample,
    interrupted: result.interrupted,
    windows: result.windows.map((window) => ({
      train: windowDates(window.window.train, date),
      test: windowDates(window.window.test, date),
      trials: window.trials,
      params: window.chosen?.params ?? null,
      inSample: window.chosen?.metrics ?? null,
      outOfSample: window.test?.metrics ?? null,
      pbo: window.pbo,
    })),
    // Intraday bars share their date: the time tells them apart, as the backtest's JSON times do.
    stitched: result.stitched.times.map((time, index) => ({ date: date(time), time: iso(time), equity: result.stitched.equity[index]! })),
  };
}
