// Walk-forward analysis: optimize on each training window, run the chosen parameters on the test window
// that follows, and stitch the test windows' equity into one out-of-sample curve.
import { barTimes, type BacktestData } from '../backtest/data.js';
import type { EquityCurve } from '../backtest/result.js';
import { compoundAnnualGrowth, periodsPerYear, yearsBetween } from '../backtest/metrics/annualization.js';
import { maxDrawdown } from '../backtest/metrics/drawdown.js';
import { firstSymbolZone } from '../backtest/run-zone.js';
import { barReturns, sharpeRatio } from '../backtest/metrics/returns.js';
import { DAY_MS, dateKeyOfDay, daysFromCivil, daysInMonth } from '../domain/civil-date.js';
import { InvalidInputError } from '../domain/errors.js';
import { type Period, periodMinutes } from '../domain/period.js';
import type { StrategyDefinition } from '../strategy/define.js';
import type { ParamDefaults } from '../strategy/params.js';
import type { TrialExecutor } from './executor.js';
import { objectiveValue, type RankingRules, rankedOutcomes } from './ranking.js';
import { optimize, planTrials, type OptimizeResult, type SearchSpec } from './optimize.js';
import { prepareTrial, runTrialBacktest, type TimeRange, type TrialOutcome, type TrialSettings, trialOutcome, windowOf } from './trial.js';
import type { RiskLimits } from '../risk/config.js';
import { ZoneRules } from '../domain/time-zone.js';

/** A calendar length: years, months, weeks or days. */
export interface Span {
  readonly count: number;
  readonly unit: 'y' | 'm' | 'w' | 'd';
  readonly text: string;
}

export function parseSpan(text: string, flag: string): Span {
  const match = /^\s*(\d+)\s*(y|m|w|d)\s*$/.exec(String(text));
  if (match === null || Number(match[1]) === 0) throw new InvalidInputError(`${flag}: a length like 3y, 6m, 8w or 30d, got ${text}`, flag);
  return { count: Number(match[1]), unit: match[2] as Span['unit'], text: String(text).trim() };
}

/** `time` moved on by `times` spans, in UTC calendar terms (a day of month the month lacks runs on into the next). */
function addSpan(time: number, span: Span, times = 1): number {
  const date = new Date(time);
  const count = span.count * times;
  if (span.unit === 'y') date.setUTCFullYear(date.getUTCFullYear() + count);
  else if (span.unit === 'm') date.setUTCMonth(date.getUTCMonth() + count);
  else date.setUTCDate(date.getUTCDate() + count * (span.unit === 'w' ? 7 : 1));
  return date.getTime();
}

/** A distance on the calendar: whole months (a year is 12), then whole days (a week is 7). */
interface CalendarOffset {
  readonly months: number;
  readonly days: number;
}

function offsetOf(span: Span, times = 1): CalendarOffset {
  const count = span.count * times;
  if (span.unit === 'y') return { months: count * 12, days: 0 };
  if (span.unit === 'm') return { months: count, days: 0 };
  return { months: 0, days: count * (span.unit === 'w' ? 7 : 1) };
}

function plus(...offsets: readonly CalendarOffset[]): CalendarOffset {
  return offsets.reduce((sum, offset) => ({ months: sum.months + offset.months, days: sum.days + offset.days }), { months: 0, days: 0 });
}

/**
 * Window boundaries: local midnights in the market's zone, each `offset` after the first bar's day, counted
 * from that day (not from the previous boundary) with months first, a day of month the month lacks taken as
 * its last day: from Jan 31, 1m is Feb 28 (29), 2m is Mar 31, so the months neither drift nor overlap.
 */
function calendarFrom(first: number, zone: string): (offset: CalendarOffset) => number {
  const rules = ZoneRules.of(zone);
  const key = dateKeyOfDay(Math.floor((first + rules.offsetAt(first)) / DAY_MS));
  const [year, month, day] = [Math.floor(key / 10_000), Math.floor(key / 100) % 100, key % 100];
  return ({ months, days }) => {
    const monthIndex = month - 1 + months;
    const toYear = year + Math.floor(monthIndex / 12);
    const toMonth = (((monthIndex % 12) + 12) % 12) + 1;
    const toDay = Math.min(day, daysInMonth(toYear, toMonth));
    return rules.instantOf((daysFromCivil(toYear, toMonth, toDay) + days) * DAY_MS);
  };
}

export interface Window {
  readonly train: TimeRange;
  readonly test: TimeRange;
  /** Set when the data ends before the test window's --test length does. */
  readonly cut?: true;
}

/** Where the data ends: the end of its last bar (starting at `last`), so a last test window holds that bar whole. */
export function dataEnd(last: number, period: Period): number {
  const minutes = periodMinutes(period);
  if (minutes !== undefined) return last + minutes * 60_000;
  const spans: Readonly<Record<string, Span>> = {
    day: { count: 1, unit: 'd', text: '1d' },
    week: { count: 1, unit: 'w', text: '1w' },
    month: { count: 1, unit: 'm', text: '1m' },
    quarter: { count: 3, unit: 'm', text: '3m' },
    year: { count: 1, unit: 'y', text: '1y' },
  };
  return addSpan(last, spans[period]!);
}

/**
 * Windows from the first bar's day: training `train` long (from that day when anchored), then `test`, moved
 * on by `step`, while a test window holds a bar; the last test window ends at `end` (the data's end) at the
 * latest. Every boundary is a midnight in `zone` (the market's), so a window holds whole local days and is
 * the same stretch as `--from`/`--to` of its first and last day.
 */
export function walkForwardWindows(
  first: number,
  last: number,
  train: Span,
  test: Span,
  step: Span,
  anchored: boolean,
  end = last + 1,
  zone = 'UTC',
): Window[] {
  const at = calendarFrom(first, zone);
  const windows: Window[] = [];
  for (let index = 0; ; index += 1) {
    const moved = offsetOf(step, index);
    const trainEnd = at(plus(offsetOf(train), moved));
    if (trainEnd > last) break;
    const trainStart = at(anchored ? plus() : moved);
    const testEnd = at(plus(offsetOf(train), moved, offsetOf(test)));
    windows.push({
      train: { from: trainStart, to: trainEnd },
      test: { from: trainEnd, to: Math.min(testEnd, end) },
      ...(testEnd > end ? { cut: true as const } : {}),
    });
    if (index > 10_000) break;
  }
  return windows;
}

export interface WindowResult {
  readonly window: Window;
  readonly trials: number;
  /** The best training trial (undefined when none qualified: the window's test then holds cash). */
  readonly chosen: TrialOutcome | undefined;
  /** The chosen params over the test window. */
  readonly test: TrialOutcome | undefined;
  readonly testEquity: { readonly times: readonly number[]; readonly equity: readonly number[] };
  readonly pbo: number | null;
  /** Training trials left out of the ranking, by reason ("strategy failed", a constraint…). */
  readonly excluded: Readonly<Record<string, number>>;
}

export interface StitchedMetrics {
  readonly totalReturn: number;
  readonly cagr: number | null;
  readonly sharpe: number | null;
  readonly maxDrawdown: number;
}

export interface WalkForwardResult {
  readonly windows: readonly WindowResult[];
  /** Out-of-sample equity: each test window's curve, up to where the next one starts, rescaled to start where the previous one ended. */
  readonly stitched: { readonly times: readonly number[]; readonly equity: readonly number[] };
  readonly outOfSample: StitchedMetrics;
  /** Means over the windows of the objective in training (chosen trial) and in test. */
  readonly inSampleObjective: number | null;
  readonly outOfSampleObjective: number | null;
  readonly interrupted: boolean;
}

export interface WalkForwardOptions {
  readonly definition: StrategyDefinition<ParamDefaults>;
  readonly data: BacktestData;
  readonly risk: RiskLimits | undefined;
  readonly settings: TrialSettings;
  readonly search: SearchSpec;
  readonly rules: RankingRules;
  readonly windows: readonly Window[];
  readonly executor: TrialExecutor;
  readonly signal?: AbortSignal;
  readonly onWindow?: (done: number, result: WindowResult) => void;
}

export async function walkForward(options: WalkForwardOptions): Promise<WalkForwardResult> {
  const { settings, rules } = options;
  const cash = Number(settings.cash);
  const plan = planTrials(options.definition, settings, options.search);
  const results: WindowResult[] = [];
  let interrupted = false;
  for (const window of options.windows) {
    if (options.signal?.aborted === true) {
      interrupted = true;
      break;
    }
    const windowPlan = { ...plan, trials: plan.trials.map((trial) => ({ ...trial, range: window.train })) };
    const optimized: OptimizeResult = await optimize({
      plan: windowPlan,
      rules,
      executor: options.executor,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (optimized.interrupted) {
      interrupted = true;
      break;
    }
    const [chosen] = rankedOutcomes(optimized.outcomes, optimized.ranking, 1);
    let test: TrialOutcome | undefined;
    // The test window warms up on the bars before it (the end of the training window), as a live run would.
    const { data, history } = windowOf(options.data, window.test);
    // No trial qualified: nothing is traded, and the stitched curve stays in cash over the window's bars.
    const times = barTimes(data);
    let testEquity: { times: number[]; equity: number[] } = { times, equity: times.map(() => cash) };
    if (chosen !== undefined) {
      const combo = windowPlan.trials.find((trial) => trial.index === chosen.index)!.combo;
      const strategy = prepareTrial(options.definition, settings, combo);
      if (data.series.some((series) => series.columns.length > 0)) {
        const run = await runTrialBacktest(strategy, { data, history, risk: options.risk }, settings);
        test = trialOutcome(chosen.index, strategy, run, settings);
        testEquity = heldAfterItsEnd(run.record.equity, times);
      }
    }
    const result = {
      window,
      trials: optimized.outcomes.length,
      chosen,
      test,
      testEquity,
      pbo: optimized.overfitting.pbo?.probability ?? null,
      excluded: optimized.ranking.excluded,
    };
    results.push(result);
    options.onWindow?.(results.length, result);
  }
  const stitched = stitch(results, cash);
  const mean = (values: (number | null)[]): number | null => {
    const known = values.filter((value): value is number => value !== null);
    return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0) / known.length;
  };
  return {
    windows: results,
    stitched,
    outOfSample: stitchedMetrics(stitched, cash, options.data, settings.riskFreeRate, uncoveredTime(results)),
    inSampleObjective: mean(results.map((result) => (result.chosen === undefined ? null : objectiveValue(result.chosen, rules.objective)))),
    outOfSampleObjective: mean(results.map((result) => (result.test === undefined ? null : objectiveValue(result.test, rules.objective)))),
    interrupted,
  };
}

/**
 * Each window's test equity, rescaled to start where the previous piece ended. A window's piece ends where
 * the next window's test starts: with --step shorter than --test the test windows overlap, and the bars
 * they share belong to the newer window (whose parameters a live run would have switched to).
 */
function stitch(results: readonly WindowResult[], cash: number): { times: number[]; equity: number[] } {
  const times: number[] = [];
  const equity: number[] = [];
  let scale = 1;
  for (const [at, { testEquity }] of results.entries()) {
    const until = results[at + 1]?.window.test.from ?? Number.POSITIVE_INFINITY;
    let last: number | undefined;
    for (let index = 0; index < testEquity.times.length && testEquity.times[index]! < until; index += 1) {
      times.push(testEquity.times[index]!);
      last = testEquity.equity[index]!;
      equity.push(last * scale);
    }
    if (last !== undefined) scale *= last / cash;
  }
  return { times, equity };
}

/**
 * A test run's curve over the window's bar times: a run whose strategy threw stops at that bar (nothing more
 * can happen), and its last equity is held to the window's end, as a window that traded nothing holds cash,
 * so its time counts in the stitched figures as its bars do.
 */
function heldAfterItsEnd(curve: EquityCurve, windowTimes: readonly number[]): { times: number[]; equity: number[] } {
  const times = Array.from(curve.times);
  const equity = Array.from(curve.equity);
  const last = times.at(-1);
  if (last === undefined) return { times, equity };
  for (const time of windowTimes) {
    if (time <= last) continue;
    times.push(time);
    equity.push(equity.at(-1)!);
  }
  return { times, equity };
}

/** Time (ms) between one test window's end and the next one's start, in no test window (a --step longer than --test). */
function uncoveredTime(results: readonly WindowResult[]): number {
  let gaps = 0;
  for (const [at, { window }] of results.entries()) {
    const next = results[at + 1]?.window.test.from;
    if (next !== undefined && next > window.test.to) gaps += next - window.test.to;
  }
  return gaps;
}

/** `uncovered`: time between the curve's first and last points that no test window holds, left out of CAGR's years as its bars are left out of the curve. */
function stitchedMetrics(
  curve: { times: readonly number[]; equity: readonly number[] },
  cash: number,
  data: BacktestData,
  riskFreeRate: number,
  uncovered: number,
): StitchedMetrics {
  const points = curve.equity.length;
  if (points === 0) return { totalReturn: 0, cagr: null, sharpe: null, maxDrawdown: 0 };
  const final = curve.equity[points - 1]!;
  return {
    totalReturn: final / cash - 1,
    cagr: compoundAnnualGrowth(cash, final, yearsBetween(curve.times[0]!, curve.times[points - 1]! - uncovered)),
    sharpe: sharpeRatio(
      barReturns(curve.equity, cash),
      periodsPerYear(data.period, curve.times, firstSymbolZone(data.series.map((series) => series.symbol))),
      riskFreeRate,
    ),
    maxDrawdown: maxDrawdown(curve.equity, cash)?.depth ?? 0,
  };
}
