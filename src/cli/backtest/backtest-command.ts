// `trader backtest STRATEGY`: runs a strategy file over candle history through the runtime of `trader run`
// against the simulated venue, then prints a summary and writes the JSON result and the HTML report.
import type { Argv, CommandModule } from 'yargs';
import { runBacktest, type BacktestRun } from '../../backtest/engine.js';
import { createProgress } from '../../backtest/progress.js';
import { formatLocal } from '../../backtest/report/format.js';
import type { BacktestResult } from '../../backtest/result.js';
import { systemClock } from '../../clock/system-clock.js';
import { isIntraday } from '../../domain/period.js';
import { createDeferredLogger } from '../../log/deferred-logger.js';
import { createLogger } from '../../log/logger.js';
import { describeFailure } from '../../strategy/failure.js';
import { parseParamAssignments } from '../../strategy/index.js';
import { checkOutputFiles } from '../../files/output-file.js';
import { BACKTEST_OPTIONS, finalEquityNote, jsonTarget, type BacktestArgs } from './flags.js';
import { loadBacktestInputs, runInputs } from './inputs.js';
import { LogDigest } from './log-digest.js';
import { writeOutputs } from './outputs.js';
import { PhaseTimings } from './phase-timings.js';

/** Bars between progress updates (each costs one clock read). */
const PROGRESS_EVERY = 4096;

export async function backtestAction(args: BacktestArgs): Promise<BacktestRun> {
  const json = jsonTarget(args.json);
  checkOutputFiles(
    [
      ['--json', json],
      ['--report', args.report],
    ],
    await runInputs(args),
  );
  const timings = new PhaseTimings();
  const { venue, cash, riskFreeRate, strategy, risk, data, history, range, dataPath, adjust, actions } = await loadBacktestInputs(
    args,
    parseParamAssignments((args.param ?? []).map(String)),
    { beforeData: () => timings.end('start-up') },
  );
  timings.end('load');
  timings.loadedOn(data.series.length, data.threads);

  // Without --verbose, warnings are gathered and told once after the run (a strategy may warn on every bar).
  const digest = args.verbose === true ? undefined : new LogDigest();
  const logger =
    digest === undefined
      ? createLogger({ level: 'debug', pretty: process.stderr.isTTY === true })
      : createDeferredLogger({ level: 'warn', destination: digest });
  const progress = createProgress({ clock: systemClock, stream: process.stderr });
  progress.start(data.series.reduce((sum, series) => sum + series.columns.length, 0));
  let run: BacktestRun;
  try {
    run = await runBacktest({
      strategies: [strategy],
      data,
      ...(history === undefined ? {} : { history }),
      cash,
      venue: venue.settings,
      actions,
      ...(risk === undefined ? {} : { risk }),
      logger,
      progress: { every: PROGRESS_EVERY, update: (done) => progress.update(done) },
      settings: {
        data: dataPath,
        ...(range === undefined ? {} : { from: range.text.from, to: range.text.to }),
        // The result's own `period` is the data's (equity is marked per data bar); this is what the strategy saw.
        strategyPeriod: strategy.period,
        cash: cash.toFixed(),
        ...venue.echo,
        adjust,
        corporateActions: actions.length,
        risk: args.risk ?? null,
        riskFreeRate,
        ...Object.fromEntries(Object.entries(strategy.params).map(([key, value]) => [`param.${key}`, value])),
      },
    });
  } finally {
    progress.stop();
    for (const line of digest?.lines() ?? []) process.stderr.write(`${line}\n`);
  }
  if (run.quoteSymbols.length > 0)
    process.stderr.write(
      `warning: ${strategy.name} asked for quotes of ${run.quoteSymbols.join(', ')} (ctx.quotes()), which a backtest does not have (it has candles only): what the strategy would decide on quotes is not in this result (trader run --paper replays quotes)\n`,
    );
  if (run.unreadSymbols.length > 0)
    process.stderr.write(
      `warning: ${strategy.name} never read the candles of ${run.unreadSymbols.join(', ')}, which the data holds: ctx.candles() without a symbol reads only the strategy's first symbol, ${strategy.symbols[0]} (the first of --symbols, or of the data's files)\n`,
    );
  timings.end('walk');
  const result = await writeOutputs(run, { json, report: args.report, quiet: args.quiet === true, metrics: { riskFreeRate } });
  const equityNote = finalEquityNote(run.record.finalEquity);
  if (equityNote !== undefined) process.stderr.write(`${equityNote}\n`);
  timings.end('write');
  if (args.timings === true) process.stderr.write(timings.lines());
  reportFailures(result, run, args.verbose === true);
  return run;
}

/** A strategy that failed fails the run (exit status 1): where and on which bar, and the stack with --verbose. */
function reportFailures(result: Pick<BacktestResult, 'failures' | 'dataPeriod'>, run: BacktestRun, verbose: boolean): void {
  const intraday = isIntraday(result.dataPeriod);
  for (const failure of result.failures) {
    const bar = failure.bar === null ? null : { ...failure.bar, time: formatLocal(failure.bar.time, intraday) };
    process.stderr.write(`error: ${describeFailure(failure.strategy, failure.source, failure.error, failure.location, bar)}\n`);
    const stack = run.record.failures?.find((one) => one.strategy === failure.strategy)?.failure.stack;
    if (verbose && stack !== undefined) process.stderr.write(`${stack}\n`);
    process.exitCode = 1;
  }
}

// The global --json is a switch; here it names a file (or - for stdout), so it must stop being a boolean,
// or yargs would read `--json out.json` as a switch and a stray argument.
export function jsonTakesAValue<T>(yargs: Argv<T>): Argv<T> {
  const options = (yargs as unknown as { getOptions(): { boolean: string[] } }).getOptions();
  const index = options.boolean.indexOf('json');
  if (index >= 0) options.boolean.splice(index, 1);
  return yargs;
}

export const backtestCommand: CommandModule<object, BacktestArgs> = {
  command: 'backtest <strategy>',
  describe: 'Run a strategy over candle history (the same strategy, risk and executor code as `trader run`)',
  builder: (yargs) =>
    jsonTakesAValue(yargs)
      .positional('strategy', {
        type: 'string',
        demandOption: true,
        describe: 'Strategy file (.ts or .js), e.g. strategies/sma-crossover.ts',
      })
      .options(BACKTEST_OPTIONS)
      .option('param', { type: 'string', array: true, describe: 'Strategy parameter key=value (repeatable)' })
      .option('json', {
        type: 'string',
        nargs: 1,
        describe: 'Write the result as JSON to FILE, or to stdout with - (then nothing else goes to stdout)',
      })
      .option('report', { type: 'string', describe: 'Write a self-contained HTML report (charts, trades) to FILE.html' })
      .option('quiet', { type: 'boolean', describe: 'No summary on the terminal' })
      .option('timings', {
        type: 'boolean',
        describe: 'Print on stderr how long start-up, loading, the walk and writing took, and the peak memory',
      })
      .example('$0 backtest strategies/sma-crossover.ts', 'SMA crossover on the bundled S&P 500 history')
      .example(
        '$0 backtest strategies/sma-crossover.ts --param fast=5 --param slow=20 --commission 0.001 --slippage 5',
        'Other parameters, with costs',
      )
      .example('$0 backtest strategies/breakout.ts --data ~/data --symbols AAPL.US,MSFT.US --period day', 'Two symbols from your own files')
      .example(
        '$0 backtest strategies/rsi-mean-reversion.ts --report rsi.html --json rsi.json',
        'Write the HTML report and the JSON result',
      )
      .example('$0 backtest strategies/dca.ts --json - | jq .metrics', 'Only JSON on stdout, for scripts')
      .example('$0 backtest strategies/sma-crossover.ts --from 2010-01-01 --to 2015-12-31', '2010 to 2015, warmed up on the bars before')
      .example('$0 backtest strategies/breakout.ts --short --borrow-rate 0.03', 'Let sells open shorts, paying 3% a year to borrow'),
  handler: async (args) => {
    await backtestAction(args);
  },
};
