// `trader walkforward STRATEGY --train 3y --test 1y`: optimizes on each training window, tests the chosen
// parameters on the window after it, and prints the stitched out-of-sample result beside the in-sample one.
import type { CommandModule } from 'yargs';
import { systemClock } from '../../clock/system-clock.js';
import { createProgress } from '../../backtest/progress.js';
import { type RankingRules, STRATEGY_FAILED } from '../../research/ranking.js';
import { chosenText, figureText, meansOverText, testFailure, testFigure, windowFigure } from '../../research/window-text.js';
import { parseSpan, walkForward, walkForwardWindows, dataEnd, type WalkForwardResult } from '../../research/walkforward.js';
import { InvalidInputError } from '../../domain/errors.js';
import { writeTextFile } from '../../files/chunked-write.js';
import { checkOutputFiles } from '../../files/output-file.js';
import { BACKTEST_OPTIONS, jsonTarget } from '../backtest/flags.js';
import { jsonTakesAValue } from '../backtest/backtest-command.js';
import { loadBacktestInputs, runInputs } from '../backtest/inputs.js';
import { noteSingleCombination, refuseEmptyPlan } from './optimize-command.js';
import { planTrials } from '../../research/optimize.js';
import { localTime } from '../../backtest/report/local-time.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf } from '../../domain/symbol.js';
import { windowDates, windowLabel } from '../../research/window-dates.js';
import { walkForwardDocument } from '../../research/walkforward-document.js';
import { listenForInterrupt } from './interrupt.js';
import { blocksOption, createExecutor, type ResearchArgs, SEARCH_OPTIONS, searchChoice, trialSettings } from './setup.js';

interface WalkForwardArgs extends ResearchArgs {
  readonly train: string;
  readonly test: string;
  readonly step?: string;
  readonly anchored?: boolean;
}

export async function walkForwardAction(args: WalkForwardArgs): Promise<WalkForwardResult> {
  const choice = searchChoice(args);
  const train = parseSpan(args.train, '--train');
  const test = parseSpan(args.test, '--test');
  const step = args.step === undefined ? test : parseSpan(args.step, '--step');
  const json = jsonTarget(args.json);
  checkOutputFiles(
    [
      ['--json', json],
      ['--report', args.report],
    ],
    await runInputs(args),
  );
  const inputs = await loadBacktestInputs(args, {});
  // The columns' first and last times: the series' candles would be made as objects just to read two.
  const times = inputs.data.series.flatMap(({ columns }) =>
    columns.length === 0 ? [] : [columns.time[0]!, columns.time[columns.length - 1]!],
  );
  const first = Math.min(...times);
  const last = Math.max(...times);
  const zone = timeZoneOf(marketOf(inputs.strategy.symbols[0]!));
  const windows = walkForwardWindows(first, last, train, test, step, args.anchored === true, dataEnd(last, inputs.data.period), zone);
  const local = localTime(zone);
  const date = (time: number): string => local.iso(time).slice(0, 10);
  if (windows.length === 0) {
    throw new InvalidInputError(
      `the data (${date(first)} to ${date(last)}) is shorter than one training window (--train ${train.text}); use a shorter --train or more data`,
      '--train',
    );
  }
  const [one, two] = windows;
  if (one !== undefined && two !== undefined && two.test.from > one.test.to)
    process.stderr.write(
      `note: --step ${step.text} is longer than --test ${test.text}: the bars between one test window and the next are in none, and the stitched out-of-sample curve leaves them out\n`,
    );
  const lastTest = windows[windows.length - 1]!.test;
  // A window of weeks (months …) ends after its last bar starts: that bar's date said too.
  const lastBar = windowDates(lastTest, date).to === date(last) ? '' : ` (its last bar ${date(last)})`;
  // With a --step shorter than --test, more than the last window reaches past the data's end.
  const cut = windows.filter((window) => window.cut === true).map((window) => windowLabel(window.test, date));
  if (cut.length > 0)
    process.stderr.write(
      `note: ${cutWindowsText(cut)} where the data${args.to === undefined ? '' : ' within --to'} ends${lastBar}: shorter than --test ${test.text}\n`,
    );
  const settings = trialSettings(args, inputs, choice.blocks);
  const plan = planTrials(inputs.strategy.definition, settings, choice);
  refuseEmptyPlan(plan);
  noteSingleCombination(plan, args.param, inputs.strategy.definition.defaults);
  const rules: RankingRules = { objective: choice.objective, constraints: choice.constraints, minTrades: choice.minTrades };
  // Windows are cut from the whole data, so each warms up on the bars before it (before --from too).
  const { executor } = await createExecutor(
    args,
    {
      data: inputs.allData,
      dataPath: inputs.dataPath,
      context: { definition: inputs.strategy.definition, data: inputs.allData, risk: inputs.risk },
      trials: plan.trials.length * windows.length,
    },
    settings,
    choice,
  );
  // Listening until the outputs are written: a second Ctrl-C must not cost the finished windows.
  const interrupt = listenForInterrupt();
  try {
    const progress = createProgress({ clock: systemClock, stream: process.stderr, label: 'walkforward', unit: 'windows', minimumMs: 0 });
    progress.start(windows.length);
    let result: WalkForwardResult;
    try {
      result = await walkForward({
        definition: inputs.strategy.definition,
        data: inputs.allData,
        risk: inputs.risk,
        settings,
        search: choice,
        rules,
        windows,
        executor,
        signal: interrupt.signal,
        onWindow: (done) => progress.update(done),
      });
    } finally {
      progress.stop();
      await executor.close();
    }
    const document = walkForwardDocument(inputs.strategy.name, result, rules, zone);
    if (json !== '-' && args.quiet !== true) process.stdout.write(summaryText(result, rules, date));
    if (json !== undefined) {
      const text = `${JSON.stringify(document, null, 2)}\n`;
      if (json === '-') process.stdout.write(text);
      else writeTextFile(json, text), process.stderr.write(`wrote ${json}\n`);
    }
    if (args.report !== undefined) {
      const { renderWalkForwardReport } = await import('../../research/report/walkforward-report.js');
      writeTextFile(args.report, await renderWalkForwardReport(inputs.strategy.name, result, zone, rules.objective.metric));
      process.stderr.write(`wrote ${args.report}\n`);
    }
    if (result.interrupted) {
      process.stderr.write(`interrupted after ${result.windows.length} of ${windows.length} windows\n`);
      process.exitCode = 130;
    } else if (failedEverywhere(result)) {
      // Nothing was tested (every window held cash), and a script must be able to tell, as from optimize.
      process.stderr.write('error: the strategy failed in every training trial of every window: nothing was tested\n');
      process.exitCode = 1;
    }
    return result;
  } finally {
    interrupt.release();
  }
}

/** "the last test window, A, ends", or "the last 2 test windows, A and B, end" (the first and the last of more). */
function cutWindowsText(labels: readonly string[]): string {
  if (labels.length === 1) return `the last test window, ${labels[0]}, ends`;
  const named = labels.length === 2 ? labels.join(' and ') : `${labels[0]} … ${labels[labels.length - 1]}`;
  return `the last ${labels.length} test windows, ${named}, end`;
}

function failedEverywhere(result: WalkForwardResult): boolean {
  return result.windows.length > 0 && result.windows.every((one) => one.trials > 0 && one.excluded[STRATEGY_FAILED] === one.trials);
}

function summaryText(result: WalkForwardResult, rules: RankingRules, date: (time: number) => string): string {
  const metric = rules.objective.metric;
  const rows = result.windows.map((window) => {
    const failed = testFailure(window);
    const failure = failed === undefined ? '' : `  (the test run failed: ${failed})`;
    return `${windowLabel(window.window.train, date)}  ${windowLabel(window.window.test, date)}  IS ${metric} ${windowFigure(window.chosen?.metrics, metric)}  OOS ${metric} ${testFigure(window, metric)}  ${chosenText(window)}${failure}`;
  });
  const oos = result.outOfSample;
  const { inSample, outOfSample } = meansOverText(result, metric);
  return `${[
    'train (first..last day)  test (first..last day)  chosen parameters',
    ...rows,
    '',
    `${metric}: in-sample mean ${figureText(result.inSampleObjective)}${inSample}, out-of-sample mean ${figureText(result.outOfSampleObjective)}${outOfSample}`,
    `stitched out-of-sample: total return ${figureText(oos.totalReturn)}, cagr ${figureText(oos.cagr)}, sharpe ${figureText(oos.sharpe)}, max drawdown ${figureText(oos.maxDrawdown)}`,
  ].join('\n')}\n`;
}

export const walkForwardCommand: CommandModule<object, WalkForwardArgs> = {
  command: 'walkforward <strategy>',
  describe: 'Walk-forward analysis: optimize on each training window, test the chosen parameters on the next window',
  builder: (yargs) =>
    jsonTakesAValue(yargs)
      .positional('strategy', { type: 'string', demandOption: true, describe: 'Strategy file (.ts or .js)' })
      .option('train', {
        type: 'string',
        nargs: 1,
        demandOption: true,
        describe: 'Training window length: 3y, 18m, 26w, 90d (y years, m months, w weeks, d days)',
      })
      .option('test', { type: 'string', nargs: 1, demandOption: true, describe: 'Test window length after each training window' })
      .option('step', { type: 'string', nargs: 1, describe: 'How far each window moves on (default: the test length)' })
      .option('anchored', { type: 'boolean', describe: 'Every training window starts at the first bar (growing windows)' })
      .options(BACKTEST_OPTIONS)
      .options(SEARCH_OPTIONS)
      .option('blocks', blocksOption("each window's probability of backtest overfitting (`pbo` in --json)"))
      .option('json', {
        type: 'string',
        nargs: 1,
        describe: 'Write the windows, chosen params and stitched curve as JSON to FILE, or to stdout with -',
      })
      .option('report', { type: 'string', describe: 'Write a self-contained HTML report with the stitched out-of-sample curve' })
      .option('quiet', { type: 'boolean', describe: 'No table on the terminal' })
      .example(
        '$0 walkforward strategies/sma-crossover.ts --param fast=5:30:5 --param slow=20:100:20 --train 3y --test 1y',
        'Rolling 3-year training, 1-year tests',
      )
      .example(
        '$0 walkforward strategies/sma-crossover.ts --param fast=5:30:5 --param slow=40:100:20 --train 5y --test 1y --anchored --report wf.html',
        'Growing windows, with a report',
      ),
  handler: async (args) => {
    await walkForwardAction(args);
  },
};
