// `trader backtest STRATEGY`: runs a strategy file over candle history through the runtime of `trader run`
// against the simulated venue, then prints a summary and writes the JSON result and the HTML report.
import type { Argv, CommandModule } from 'yargs';
import { runBacktest, type BacktestRun } from '../../backtest/engine.js';
import { createProgress } from '../../backtest/progress.js';
import { systemClock } from '../../clock/system-clock.js';
import { createLogger, silentLogger } from '../../log/logger.js';
import { parseParamAssignments } from '../../strategy/index.js';
import { BACKTEST_OPTIONS, jsonTarget, type BacktestArgs } from './flags.js';
import { loadBacktestInputs } from './inputs.js';
import { writeOutputs } from './outputs.js';

/** Bars between progress updates (each costs one clock read). */
const PROGRESS_EVERY = 4096;

export async function backtestAction(args: BacktestArgs): Promise<BacktestRun> {
  const json = jsonTarget(args.json);
  const params = parseParamAssignments((args.param ?? []).map(String));
  const { venue, cash, riskFreeRate, strategy, risk, data } = await loadBacktestInputs(args, params);

  const progress = createProgress({ clock: systemClock, stream: process.stderr });
  progress.start(data.series.reduce((sum, series) => sum + series.candles.length, 0));
  let run: BacktestRun;
  try {
    run = await runBacktest({
      strategies: [strategy],
      data,
      cash,
      venue: venue.settings,
      ...(risk === undefined ? {} : { risk }),
      logger: args.verbose === true ? createLogger({ level: 'debug', pretty: process.stderr.isTTY === true }) : silentLogger,
      progress: { every: PROGRESS_EVERY, update: (done) => progress.update(done) },
      settings: {
        data: args.data,
        // The result's own `period` is the data's (equity is marked per data bar); this is what the strategy saw.
        strategyPeriod: strategy.period,
        cash: cash.toFixed(),
        ...venue.echo,
        risk: args.risk ?? null,
        riskFreeRate,
        ...Object.fromEntries(Object.entries(strategy.params).map(([key, value]) => [`param.${key}`, value])),
      },
    });
  } finally {
    progress.stop();
  }
  await writeOutputs(run, { json, report: args.report, quiet: args.quiet === true, metrics: { riskFreeRate } });
  for (const failed of run.summary.strategies.filter((state) => state.state === 'failed')) {
    process.stderr.write(`error: strategy ${failed.name} (${failed.source}) failed: ${failed.error ?? 'unknown error'}\n`);
    process.exitCode = 1;
  }
  return run;
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
      .option('param', { type: 'string', array: true, describe: 'Strategy parameter key=value (repeatable)' })
      .options(BACKTEST_OPTIONS)
      .option('json', {
        type: 'string',
        nargs: 1,
        describe: 'Write the result as JSON to FILE, or to stdout with - (then nothing else goes to stdout)',
      })
      .option('report', { type: 'string', describe: 'Write a self-contained HTML report (charts, trades) to FILE.html' })
      .option('quiet', { type: 'boolean', describe: 'No summary on the terminal' })
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
      .example('$0 backtest strategies/dca.ts --json - | jq .metrics', 'Only JSON on stdout, for scripts'),
  handler: async (args) => {
    await backtestAction(args);
  },
};
