// `trader check`: is a strategy honest? Four checks over the same data, each pass or fail with the first
// decision that differs:
// - look-ahead: cutting the history after a random bar never changes a decision made up to that bar;
// - warm-up: a run warmed up on more history than the strategy declares makes the same decisions;
// - determinism: runs make the same decisions: one more in this process, and one from the strategy loaded again
//   (when it can be);
// - parity: the backtest and a paper replay against the simulator make the same decisions in the same order.
import type { RiskLimits } from '../../risk/config.js';
import type { PreparedStrategy } from '../../strategy/prepare.js';
import { seededRandom } from '../param-space.js';
import { barTimes, type BacktestData, sliceData } from '../../backtest/data.js';
import { runTrialBacktest, type TrialSettings } from '../trial.js';
import { decisionsOf, type Decision, type Difference, firstDifference } from './decisions.js';
import { BarCloseTimes } from '../../backtest/bar-close.js';
import { failureWhere } from '../../strategy/failure.js';
import { venueMisalignment } from './bar-alignment.js';
import type { BacktestRun } from '../../backtest/engine.js';
import type { Period } from '../../domain/period.js';
import { marketOf } from '../../domain/symbol.js';
import { barWindow } from '../../feeds/live/bar-window.js';

export const CHECK_NAMES = ['look-ahead', 'warm-up', 'determinism', 'parity'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export interface CheckResult {
  /** A check, or 'run' when the strategy threw on the data (the checks then cover the bars before it). */
  readonly check: CheckName | 'run';
  readonly passed: boolean;
  /** True when the check could not run on this data (it counts as passed, and says why in `detail`). */
  readonly skipped?: boolean;
  /** What was compared, in words. */
  readonly detail: string;
  readonly difference?: Difference;
}

export interface CheckInput {
  readonly strategy: PreparedStrategy;
  readonly data: BacktestData;
  readonly risk: RiskLimits | undefined;
  readonly settings: TrialSettings;
  /** How many random cut points the look-ahead check tries. */
  readonly cuts: number;
  readonly seed: number;
  /** Least bars of the parity stretch (it grows to hold the run's first decisions: parityStretch). */
  readonly parityBars: number;
  /**
   * The run's data files the strategy opened itself (while loaded and checked): bars it reads that way are
   * not cut, so the look-ahead check fails when there are any. Not watched when absent.
   */
  readonly dataFilesRead?: () => readonly string[];
  /**
   * The strategy loaded from its file again, its module evaluated anew, for determinism's second run: what
   * the module works out as it loads (a random seed, the time) differs from one process to the next, as a
   * second run in this process would not show. The second run uses `strategy` again when absent.
   */
  readonly loadAgain?: () => Promise<PreparedStrategy>;
  /** Runs the parity replay (injected: it starts the simulator and the paper runtime). */
  readonly paperDecisions?: (strategy: PreparedStrategy, data: BacktestData) => Promise<Decision[]>;
  /** Told how many runs the checks plan (at most), then after each run (a progress bar on a terminal). */
  readonly progress?: { start(total: number): void; update(done: number): void };
  /** Stops the checks before their next run: the checks finished by then are the result. */
  readonly signal?: AbortSignal;
}

/** One backtest of the checks, counted for their progress. */
async function checkRun(input: CheckInput, data: BacktestData, strategy = input.strategy, history?: BacktestData): Promise<BacktestRun> {
  if (input.signal !== undefined) {
    // A turn of the event loop, so Ctrl-C is seen between runs.
    await new Promise<void>((resolve) => setImmediate(resolve));
    input.signal.throwIfAborted();
  }
  const run = await runTrialBacktest(
    strategy,
    { data, risk: input.risk, ...(history === undefined ? {} : { history }) },
    input.settings,
    true,
  );
  ranRun(input);
  return run;
}

async function decisions(input: CheckInput, data: BacktestData, strategy = input.strategy, history?: BacktestData): Promise<Decision[]> {
  return decisionsOf((await checkRun(input, data, strategy, history)).intents);
}

/** Runs finished in the current runChecks of each input, for its progress. */
const runsDone = new WeakMap<CheckInput, number>();

function ranRun(input: CheckInput): void {
  const done = (runsDone.get(input) ?? 0) + 1;
  runsDone.set(input, done);
  input.progress?.update(done);
}

/** Every series cut to the bars starting in [from, to). */
function barsBetween(data: BacktestData, from: number, to: number): BacktestData {
  return sliceData(data, from, to);
}

export async function checkDeterminism(input: CheckInput, full: readonly Decision[]): Promise<CheckResult> {
  const bars = barTimes(input.data).length;
  // The strategy as loaded, run again in this process as optimize's trials run one after another: state its
  // module keeps between runs (a variable outside run()) makes the second differ.
  const rerun = firstDifference(full, await decisions(input, input.data, input.strategy));
  if (rerun !== undefined)
    return {
      check: 'determinism',
      passed: false,
      detail: `two runs over ${bars} bars in one process differ: the strategy draws something new each run (Math.random, the time) or keeps state between runs (a variable of its module, outside run()), so optimize's trials would depend on their order`,
      difference: rerun,
    };
  if (input.loadAgain === undefined) {
    if (full.length === 0) return nothingCompared('determinism', `two runs over ${bars} bars made no decision`);
    return { check: 'determinism', passed: true, detail: `two runs over ${bars} bars, ${decisionCount(full.length)}` };
  }
  const again = firstDifference(full, await decisions(input, input.data, await input.loadAgain()));
  const runs = `three runs over ${bars} bars (the strategy loaded again for the third)`;
  if (again === undefined && full.length === 0) return nothingCompared('determinism', `${runs} made no decision`);
  return {
    check: 'determinism',
    passed: again === undefined,
    detail: `${runs}, ${decisionCount(full.length)}`,
    ...(again === undefined ? {} : { difference: again }),
  };
}

function decisionCount(count: number): string {
  return `${count} decision${count === 1 ? '' : 's'}`;
}

export async function checkLookAhead(input: CheckInput, full: readonly Decision[]): Promise<CheckResult> {
  const times = barTimes(input.data);
  if (input.strategy.warmup + 1 > times.length - 2)
    return nothingCompared(
      'look-ahead',
      `the declared warm-up of ${input.strategy.warmup} bars leaves no bar to cut among ${times.length} (cuts come after the warm-up)`,
    );
  const random = seededRandom(input.seed);
  const low = input.strategy.warmup + 1;
  const cuts = [
    ...new Set(Array.from({ length: input.cuts }, () => low + Math.floor(random() * Math.max(1, times.length - 1 - low)))),
  ].sort((a, b) => a - b);
  for (const cut of cuts) {
    // Decisions on bars up to `cut` are made before the next bar starts.
    const next = times[cut + 1]!;
    const cutRun = await decisions(input, barsBetween(input.data, Number.NEGATIVE_INFINITY, next));
    const expected = full.filter((decision) => decision.time < next);
    const difference = firstDifference(
      expected,
      cutRun.filter((decision) => decision.time < next),
    );
    if (difference !== undefined)
      return { check: 'look-ahead', passed: false, detail: `history cut after bar ${cut + 1} of ${times.length}`, difference };
  }
  const read = input.dataFilesRead?.() ?? [];
  if (read.length > 0)
    return {
      check: 'look-ahead',
      passed: false,
      detail:
        `the strategy read the data itself (${read.join(', ')}): bars read that way are not cut, so looking ahead cannot be ` +
        'ruled out; take bars from ctx.candles()',
    };
  // A cut run that decided anything would have differed from a full run that decided nothing.
  if (full.length === 0) return nothingCompared('look-ahead', `no run over ${times.length} bars or cut shorter made a decision`);
  return {
    check: 'look-ahead',
    passed: true,
    detail: `history cut after ${cuts.length} random bar${cuts.length === 1 ? '' : 's'} (${cuts.map((cut) => cut + 1).join(', ')}) of ${times.length}`,
  };
}

/** Bars the warm-up check starts its pairs of runs from, spread over the data. */
export const WARM_UP_STARTS = 8;

/**
 * Pairs of runs from the same bar with the same account, one warmed up on the declared `warmup` bars of
 * history and one on ten times as many (plus 10; skipped in data too short for that), make the same decisions if every
 * indicator is warm after the declared bars: what an indicator still remembers of where it started is then
 * negligible (an exponential average of period p keeps (1 − 1/p)^n of it after n bars). Runs started at
 * different bars would differ through the account instead (positions held, equity to size on). A warm-up
 * too short shows only where the strategy decides soon after a start, so the pairs start at WARM_UP_STARTS
 * bars spread over the data, each run covering twice the longer warm-up (at least 100 bars).
 */
export async function checkWarmUp(input: CheckInput): Promise<CheckResult> {
  const times = barTimes(input.data);
  const warmup = input.strategy.warmup;
  // A warm-up counts bars of the strategy's period; history is cut in data bars, `scale` of them to each.
  const scale = dataBarsPerBar(input.data, input.strategy.period);
  const unit = scale === 1 ? 'bars' : `${input.strategy.period} bars`;
  const dataBars = scale === 1 ? 'bars' : `${input.data.period} bars`;
  // Ten times as many (plus 10), with 50 data bars left to run on: a shorter one would miss a slow indicator.
  const longerData = Math.ceil((10 * warmup + 10) * scale);
  const longer = Math.floor(longerData / scale);
  if (times.length < longerData + 50)
    return {
      check: 'warm-up',
      passed: true,
      skipped: true,
      detail: `${times.length} ${dataBars} are too few: runs warmed up on ten times the declared ${warmup} ${unit} plus 10 need ${longerData + 50}`,
    };
  const span = Math.max(2 * longerData, 100);
  const room = times.length - longerData;
  const starts = [
    ...new Set(Array.from({ length: WARM_UP_STARTS }, (_, index) => longerData + Math.floor((index * room) / WARM_UP_STARTS))),
  ];
  let compared = 0;
  for (const start of starts) {
    const end = times[start + span] ?? Number.POSITIVE_INFINITY;
    const data = barsBetween(input.data, times[start]!, end);
    const history = barsBetween(input.data, times[start - longerData]!, times[start]!);
    const declared = await decisions(input, data, input.strategy, history);
    const extended = await decisions(input, data, { ...input.strategy, warmup: longer }, history);
    const difference = firstDifference(declared, extended);
    if (difference !== undefined)
      return {
        check: 'warm-up',
        passed: false,
        detail: `a run from ${scale === 1 ? 'bar' : `${input.data.period} bar`} ${start + 1} decided differently after the declared warm-up of ${warmup} ${unit} (expected) than after ${longer} (got)`,
        difference,
      };
    compared += declared.length;
  }
  if (compared === 0) return nothingCompared('warm-up', `${starts.length} pairs of runs of up to ${span} ${dataBars} made no decision`);
  return {
    check: 'warm-up',
    passed: true,
    detail: `${starts.length} pairs of runs of up to ${span} ${dataBars}, from ${dataBars} ${starts.map((start) => start + 1).join(', ')} (${decisionCount(compared)}): the same after the declared warm-up of ${warmup} ${unit} as after ${longer}`,
  };
}

/** Sampled bars of the data to measure how many make a bar of a longer period. */
const SCALE_SAMPLE = 20_000;

/** Data bars per bar of `period`, measured on the data's first series (1 for the data's own period). */
export function dataBarsPerBar(data: BacktestData, period: Period): number {
  if (period === data.period) return 1;
  const series = data.series.find((one) => one.columns.length > 0);
  if (series === undefined) return 1;
  const market = marketOf(series.symbol);
  const count = Math.min(series.columns.length, SCALE_SAMPLE);
  let windows = 0;
  let windowEnd = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < count; index += 1) {
    const time = series.columns.time[index]!;
    if (time < windowEnd) continue;
    windows += 1;
    windowEnd = barWindow(time, period, market).end;
  }
  return Math.max(1, count / windows);
}

/** Decisions the parity stretch is made long enough to hold, when the run makes that many. */
export const PARITY_DECISIONS = 10;
/** The stretch grows to hold those decisions up to this many bars (or `parityBars`, if more). */
export const PARITY_MAX_BARS = 2_000;

/**
 * Bars of the parity stretch: at least `minimum`, and through the bar after the one the run's
 * PARITY_DECISIONS-th decision was made on (a stretch without decisions would compare nothing).
 */
export function parityStretch(times: readonly number[], full: readonly Decision[], minimum: number): number {
  const bars = Math.min(times.length, minimum);
  const last = full[Math.min(full.length, PARITY_DECISIONS) - 1];
  if (last === undefined) return bars;
  // A decision's time is the close of the bar it was made on: the last bar starting before it.
  let decidedOn = 0;
  while (decidedOn + 1 < times.length && times[decidedOn + 1]! < last.time) decidedOn += 1;
  return Math.max(bars, Math.min(times.length, decidedOn + 2, Math.max(minimum, PARITY_MAX_BARS)));
}

export async function checkParity(input: CheckInput, full: readonly Decision[]): Promise<CheckResult> {
  if (input.paperDecisions === undefined) return { check: 'parity', passed: true, skipped: true, detail: 'no paper replay given' };
  // The simulator replays every symbol of the run: the stretch starts where the last of them has begun.
  const all = barTimes(input.data);
  const begin = latestStart(input.data);
  const skipped = all.findIndex((time) => time >= begin);
  const times = all.slice(skipped);
  const stretch = parityStretch(
    times,
    full.filter((decision) => decision.time > times[0]!),
    input.parityBars,
  );
  const data = barsBetween(input.data, times[0]!, times[stretch - 1]! + 1);
  const run = await checkRun(input, data);
  const backtested = decisionsOf(run.intents);
  let paper: Decision[];
  try {
    paper = await input.paperDecisions(input.strategy, data);
  } catch (error) {
    if (isInterrupt(input, error)) throw error;
    // Told as this check's failure: the other checks' results stand.
    ranRun(input);
    return { check: 'parity', passed: false, detail: `the paper replay failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  ranRun(input);
  // The same bar, not the same instant: a paper run has a week bar at the week's end, the backtest with its
  // last weekday's close; both after the same data bar closed and before the next one did.
  const closes = closesOf(data);
  const sameBar = (a: number, b: number): boolean => a === b || barsClosedBy(closes, a) === barsClosedBy(closes, b);
  const difference = firstDifference(backtested, paper, sameBar);
  const where = skipped === 0 ? `first ${stretch} bars` : `${stretch} bars from bar ${skipped + 1}, the first with data for every symbol`;
  if (backtested.length === 0 && paper.length === 0)
    return nothingCompared('parity', `${where}: no decisions in ${full.length === 0 ? 'the whole run' : 'the stretch'}`);
  const misaligned = difference === undefined ? undefined : (quotesMissing(run.quoteSymbols) ?? venueMisalignment(data));
  return {
    check: 'parity',
    passed: difference === undefined,
    detail: `${where}: backtest ${backtested.length} decisions, paper replay ${paper.length}${misaligned === undefined ? '' : `; ${misaligned}`}`,
    ...(difference === undefined ? {} : { difference }),
  };
}

/** The close instants of the data's bar times (as the backtest closes them), ascending. */
function closesOf(data: BacktestData): number[] {
  const closes = new BarCloseTimes(data.period);
  const symbol = data.series[0]!.symbol;
  return barTimes(data)
    .map((time) => closes.closeOf({ symbol, time }))
    .sort((a, b) => a - b);
}

/** How many of the ascending `closes` are at or before `time`. */
function barsClosedBy(closes: readonly number[], time: number): number {
  let low = 0;
  let high = closes.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (closes[middle]! <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A check that had nothing to compare: skipped, not passed on no evidence. */
function nothingCompared(check: CheckName, what: string): CheckResult {
  return { check, passed: true, skipped: true, detail: `${what}: nothing compared (more data, or other params?)` };
}

/** Why a strategy that asked for quotes decides otherwise in a paper run, whose replay sends them. */
function quotesMissing(symbols: readonly string[]): string | undefined {
  if (symbols.length === 0) return undefined;
  return `the strategy asked for quotes of ${symbols.join(', ')} (ctx.quotes()): a backtest has candles only and sends none, a paper run sends four a bar`;
}

/** The first bar time by which every series with bars has begun. */
function latestStart(data: BacktestData): number {
  let begin = Number.NEGATIVE_INFINITY;
  for (const series of data.series) if (series.columns.length > 0) begin = Math.max(begin, series.columns.time[0]!);
  return begin;
}

/** The checks' results, in the order of CHECK_NAMES after 'run'; when the signal stopped them, those finished. */
export async function runChecks(input: CheckInput, only: readonly CheckName[] = CHECK_NAMES): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  try {
    await checkInto(results, input, only);
  } catch (error) {
    if (!isInterrupt(input, error)) throw error;
  }
  const order: readonly CheckResult['check'][] = ['run', ...CHECK_NAMES];
  return results.sort((a, b) => order.indexOf(a.check) - order.indexOf(b.check));
}

/** Whether `error` is the checks' signal stopping them. */
function isInterrupt(input: CheckInput, error: unknown): boolean {
  return input.signal?.aborted === true && error === input.signal.reason;
}

/** Runs the checks, each result pushed as it is known. */
async function checkInto(results: CheckResult[], input: CheckInput, only: readonly CheckName[]): Promise<void> {
  const planned =
    1 +
    (only.includes('look-ahead') ? input.cuts : 0) +
    (only.includes('warm-up') ? 2 * WARM_UP_STARTS : 0) +
    (only.includes('determinism') ? (input.loadAgain === undefined ? 1 : 2) : 0) +
    (only.includes('parity') && input.paperDecisions !== undefined ? 2 : 0);
  runsDone.delete(input);
  input.progress?.start(planned);
  let run = await checkRun(input, input.data);
  const failed = run.record.failures?.[0]?.failure;
  if (failed !== undefined)
    results.push({
      check: 'run',
      passed: false,
      detail: `the strategy threw: ${failureWhere(failed)}; the checks below cover only the bars before it`,
    });
  // The other checks look at the bars before the throw only: their runs would all fail there anyway.
  if (failed?.bar !== undefined) {
    const before = { ...input, data: barsBetween(input.data, Number.NEGATIVE_INFINITY, failed.bar.time) };
    runsDone.set(before, runsDone.get(input) ?? 0);
    input = before;
    if (barTimes(input.data).length < 2) {
      results.push(...only.map((check) => nothingCompared(check, 'the strategy threw on its first bar')));
      return;
    }
    run = await checkRun(input, input.data);
  }
  const full = decisionsOf(run.intents);
  // Two plain runs that differ make every comparison below meaningless: said so rather than blamed on look-ahead.
  const determinism = only.includes('determinism') ? await checkDeterminism(input, full) : undefined;
  if (determinism !== undefined) results.push(determinism);
  const random = determinism !== undefined && !determinism.passed;
  const unjudged = (check: CheckName): CheckResult => ({
    check,
    passed: true,
    skipped: true,
    detail: 'not judged: two plain runs differ (see determinism), so a difference here would say nothing',
  });
  if (only.includes('look-ahead')) results.push(random ? unjudged('look-ahead') : await checkLookAhead(input, full));
  if (only.includes('warm-up')) results.push(random ? unjudged('warm-up') : await checkWarmUp(input));
  if (only.includes('parity')) results.push(random ? unjudged('parity') : await checkParity(input, full));
}
