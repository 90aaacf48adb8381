// `trader check STRATEGY`: look-ahead, warm-up, determinism and backtest/paper parity; pass or fail per
// check with the first differing decision, exit 1 when any check fails.
import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { createProgress } from '../../backtest/progress.js';
import { localTime } from '../../backtest/report/local-time.js';
import { systemClock } from '../../clock/system-clock.js';
import { corporateActionToJson } from '../../domain/corporate-action.js';
import { InvalidInputError } from '../../domain/errors.js';
import { writeTextFile } from '../../files/chunked-write.js';
import { checkOutputFiles } from '../../files/output-file.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf } from '../../domain/symbol.js';
import {
  CHECK_NAMES,
  PARITY_DECISIONS,
  PARITY_MAX_BARS,
  type CheckName,
  type CheckResult,
  runChecks,
} from '../../research/check/checks.js';
import { paperDecisions } from '../../research/check/paper-replay.js';
import type { Difference } from '../../research/check/decisions.js';
import { parseParamAssignments } from '../../strategy/index.js';
import { BACKTEST_OPTIONS, type BacktestArgs, jsonTarget } from '../backtest/flags.js';
import { jsonTakesAValue } from '../backtest/backtest-command.js';
import { type BacktestInputs, loadBacktestInputs, runInputs } from '../backtest/inputs.js';
import { FileReads } from '../../research/check/file-reads.js';
import { listenForInterrupt } from './interrupt.js';
import { parseSeed, seedOption } from './seed.js';

interface CheckArgs extends BacktestArgs {
  readonly cuts: number;
  readonly seed?: string | number;
  readonly 'parity-bars': number;
  readonly only?: string;
}

export async function checkAction(args: CheckArgs): Promise<CheckResult[]> {
  const only =
    args.only === undefined
      ? CHECK_NAMES
      : String(args.only)
          .split(',')
          .map((name) => name.trim());
  const unknown = only.filter((name) => !(CHECK_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new InvalidInputError(`--only: unknown check ${unknown.join(', ')} (one of ${CHECK_NAMES.join(', ')})`, '--only');
  parseSeed(args.seed); // refused before any file is read, like the flags below
  for (const [flag, value, min] of [
    ['--cuts', args.cuts, 1],
    ['--parity-bars', args['parity-bars'], 3],
  ] as const)
    if (!Number.isSafeInteger(value) || value < min) throw new InvalidInputError(`${flag}: a whole number ≥ ${min}, got ${value}`, flag);
  checkOutputFiles([['--json', jsonTarget(args.json)]], await runInputs(args));
  // Ctrl-C stops the checks before their next run (the paper replay at once): those finished are shown, exit 130.
  const interrupt = listenForInterrupt();
  // Files the strategy opens while it is loaded and checked; the checker's own reading of the data is left out.
  const reads = FileReads.watch();
  try {
    const inputs = await loadBacktestInputs(args, parseParamAssignments((args.param ?? []).map(String)), {
      beforeStrategy: () => reads.resume(),
      beforeData: () => reads.pause(),
      signal: interrupt.signal,
    }).catch((error: unknown) => {
      if (interrupt.signal.aborted) return undefined;
      throw error;
    });
    if (inputs === undefined) {
      process.stderr.write(`interrupted: 0 of ${only.length} checks finished\n`);
      process.exitCode = 130;
      return [];
    }
    reads.resume();
    return await checkWith(args, only as CheckName[], inputs, () => reads.within(inputs.dataPath), interrupt.signal);
  } finally {
    reads.stop();
    interrupt.release();
  }
}

async function checkWith(
  args: CheckArgs,
  only: readonly CheckName[],
  inputs: BacktestInputs,
  dataFilesRead: () => readonly string[],
  signal: AbortSignal,
): Promise<CheckResult[]> {
  const settings = {
    strategyFile: resolve(args.strategy),
    symbols: inputs.strategy.symbols,
    cash: inputs.cash.toFixed(),
    venue: inputs.venue.settings,
    ...(inputs.actions.length === 0 ? {} : { actions: inputs.actions.map(corporateActionToJson) }),
    riskFreeRate: inputs.riskFreeRate,
    blocks: 2,
    fixed: {},
  };
  const progress = createProgress({ clock: systemClock, stream: process.stderr, label: 'check', unit: 'runs' });
  let results: CheckResult[];
  try {
    results = await runChecks(
      {
        strategy: inputs.strategy,
        data: inputs.data,
        risk: inputs.risk,
        settings,
        cuts: args.cuts,
        seed: parseSeed(args.seed),
        parityBars: args['parity-bars'],
        dataFilesRead,
        loadAgain: inputs.loadStrategyAfresh,
        paperDecisions: (strategy, data) =>
          paperDecisions(strategy, data, {
            cash: settings.cash,
            venue: settings.venue,
            actions: inputs.actions,
            ...(inputs.risk === undefined ? {} : { risk: inputs.risk }),
            signal,
          }),
        progress,
        signal,
      },
      only,
    );
  } finally {
    progress.stop();
  }
  const zone = timeZoneOf(marketOf(inputs.strategy.symbols[0]!));
  const at = (time: number): string => (Number.isFinite(time) ? localTime(zone).iso(time) : '—');
  const json = jsonTarget(args.json);
  const statusOf = (result: CheckResult): 'PASS' | 'FAIL' | 'SKIP' => (result.skipped === true ? 'SKIP' : result.passed ? 'PASS' : 'FAIL');
  const finished = results.filter((result) => result.check !== 'run').length;
  const interrupted = signal.aborted && finished < only.length;
  // `passed` is true with SKIPs among the checks, never with checks left out; `judged` counts what was compared at all.
  const document = () =>
    `${JSON.stringify(
      {
        strategy: inputs.strategy.name,
        passed: !interrupted && results.every((result) => result.passed),
        interrupted,
        judged: results.filter((result) => result.skipped !== true).length,
        checks: results.map((result) => ({
          ...result,
          status: statusOf(result),
          ...(result.difference === undefined ? {} : { difference: differenceJson(result.difference, at) }),
        })),
      },
      null,
      2,
    )}\n`;
  if (json === '-') process.stdout.write(document());
  else {
    if (json !== undefined) {
      writeTextFile(json, document());
      process.stderr.write(`wrote ${json}\n`);
    }
    for (const result of results) {
      process.stdout.write(`${statusOf(result)}  ${result.check.padEnd(12)} ${result.detail}\n`);
      const difference = result.difference;
      if (difference !== undefined) {
        process.stdout.write(`      first difference: decision ${difference.index + 1}, at ${at(difference.time)}\n`);
        process.stdout.write(
          `        expected ${sideText(difference.expected, difference.expectedTime, at)}\n        got      ${sideText(difference.actual, difference.actualTime, at)}\n`,
        );
      }
    }
  }
  if (interrupted) {
    process.stderr.write(`interrupted: ${finished} of ${only.length} checks finished\n`);
    process.exitCode = 130;
  } else if (results.some((result) => !result.passed)) process.exitCode = 1;
  return results;
}

/** One side of a difference: its decision and when it was made (the two may differ only in when). */
function sideText(decision: string | undefined, time: number | undefined, at: (time: number) => string): string {
  return decision === undefined || time === undefined ? '(none)' : `at ${at(time)} ${decision}`;
}

/** A difference for --json: times as local ISO text, each side's decision as an object beside its time. */
function differenceJson(difference: Difference, at: (time: number) => string) {
  const side = (decision: string | undefined, time: number | undefined) =>
    decision === undefined || time === undefined ? null : { time: at(time), ...(JSON.parse(decision) as object) };
  return {
    index: difference.index,
    time: at(difference.time),
    expected: side(difference.expected, difference.expectedTime),
    actual: side(difference.actual, difference.actualTime),
  };
}

export const checkCommand: CommandModule<object, CheckArgs> = {
  command: 'check <strategy>',
  describe: 'Is a strategy honest? Look-ahead, warm-up, determinism and backtest/paper parity checks (exit 1 on failure)',
  builder: (yargs) =>
    jsonTakesAValue(yargs)
      .positional('strategy', { type: 'string', demandOption: true, describe: 'Strategy file (.ts or .js)' })
      .option('param', { type: 'string', array: true, describe: 'Strategy parameter key=value (repeatable)' })
      .options(BACKTEST_OPTIONS)
      // The checks compare runs over the stretch itself (the warm-up check starts some of them cold on purpose).
      .option('from', {
        type: 'string',
        describe: 'First date of the bars checked (YYYY-MM-DD, market-local); no warm-up from earlier bars',
      })
      .option('to', { type: 'string', describe: 'Last date of the bars checked (YYYY-MM-DD, market-local, included)' })
      .option('cuts', { type: 'number', default: 5, describe: 'Look-ahead: how many random bars to cut the history after' })
      .option('seed', seedOption('Seed of the random cut points'))
      .option('parity-bars', {
        type: 'number',
        default: 60,
        describe: `Parity: the least bars replayed on the paper simulator, from the first; the stretch grows to hold the run's first ${PARITY_DECISIONS} decisions (up to ${PARITY_MAX_BARS.toLocaleString('en-US')} bars)`,
      })
      .option('only', { type: 'string', describe: `Run only these checks (comma-separated: ${CHECK_NAMES.join(', ')})` })
      .option('json', { type: 'string', nargs: 1, describe: 'The results as JSON: to FILE, or to stdout with -' })
      .example('$0 check strategies/sma-crossover.ts', 'All four checks on the bundled history')
      .example('$0 check my-strategy.ts --data ~/data/AAPL.US.csv --only look-ahead,determinism --cuts 20', 'Some checks, more cut points'),
  handler: async (args) => {
    await checkAction(args);
  },
};
