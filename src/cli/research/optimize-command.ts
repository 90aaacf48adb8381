// `trader optimize STRATEGY --param fast=5:30:5 …`: backtests every combination (or a seeded random sample)
// on every core or on queue workers, ranks them by the objective, and reports how likely the best is luck.
import { basename } from 'node:path';
import type { CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import { createProgress } from '../../backtest/progress.js';
import { systemClock } from '../../clock/system-clock.js';
import { completeRows, optimize, planTrials, type OptimizeResult, type TrialPlan } from '../../research/optimize.js';
import { type RankingRules, rankedOutcomes, STRATEGY_FAILED } from '../../research/ranking.js';
import { csvLines, formatTable, type OptimizeSettings, optimizeDocument } from '../../research/report-rows.js';
import { writeChunks, writeChunksToFile, writeTextFile } from '../../files/chunked-write.js';
import { checkOutputFiles } from '../../files/output-file.js';
import { fileHash } from '../../research/file-hash.js';
import { strategyHash } from '../../research/strategy-hash.js';
import { openTrialsFile, saveTrials, type TrialsFile } from '../../research/trials-file.js';
import { BACKTEST_OPTIONS, jsonTarget } from '../backtest/flags.js';
import { jsonTakesAValue } from '../backtest/backtest-command.js';
import { finiteRange } from '../backtest/date-range.js';
import { type BacktestInputs, loadBacktestInputs, runInputs } from '../backtest/inputs.js';
import { listenForInterrupt } from './interrupt.js';
import { optimizeSettings } from './optimize-settings.js';
import { blocksOption, createExecutor, type ResearchArgs, SEARCH_OPTIONS, searchChoice, TOP_OPTION, trialSettings } from './setup.js';

interface OptimizeArgs extends ResearchArgs {
  readonly csv?: string;
  readonly resume?: string;
}

export async function optimizeAction(args: OptimizeArgs): Promise<OptimizeResult> {
  const choice = searchChoice(args);
  const json = jsonTarget(args.json);
  if (json === '-' && args.csv === '-')
    throw new InvalidInputError('--json - and --csv - would both write to stdout: send one to a file', '--csv');
  checkOutputFiles(
    [
      ['--json', json],
      ['--csv', args.csv],
      ['--report', args.report],
      ['--resume', args.resume],
    ],
    await runInputs(args),
  );
  const inputs = await loadBacktestInputs(args, {});
  const settings = trialSettings(args, inputs, choice.blocks);
  const plan = withinRange(planTrials(inputs.strategy.definition, settings, choice), inputs);
  refuseEmptyPlan(plan);
  noteSingleCombination(plan, args.param, inputs.strategy.definition.defaults);
  const rules: RankingRules = { objective: choice.objective, constraints: choice.constraints, minTrades: choice.minTrades };
  // Under --from/--to every trial runs on its window of the whole data, warmed up on the bars before it.
  const { executor, dataHash } = await createExecutor(
    args,
    {
      data: inputs.allData,
      dataPath: inputs.dataPath,
      context: { definition: inputs.strategy.definition, data: inputs.allData, risk: inputs.risk },
      trials: plan.trials.length,
    },
    settings,
    choice,
  );
  // By content: an edited strategy (its logic or its defaults) must not add trials to the old ones.
  const strategyContent = await strategyHash(args.strategy);
  const identity = {
    strategy: inputs.strategy.name,
    strategyHash: strategyContent,
    // The risk limits by content too (the settings name the file only): edited, they are another run.
    ...(settings.riskFile === undefined ? {} : { riskHash: await fileHash(settings.riskFile) }),
    defaults: inputs.strategy.params,
    space: choice.space,
    search: choice.search,
    trials: choice.trials ?? null,
    seed: choice.seed,
    data: dataHash,
    ...(inputs.range === undefined ? {} : { from: inputs.range.text.from, to: inputs.range.text.to }),
    settings: {
      ...settings,
      strategyFile: basename(settings.strategyFile),
      riskFile: settings.riskFile === undefined ? null : basename(settings.riskFile),
    },
  };
  const trialsFile: TrialsFile | undefined = args.resume === undefined ? undefined : openTrialsFile(String(args.resume), identity);
  // Listening until the outputs are written: a second Ctrl-C must not cost the finished trials.
  const interrupt = listenForInterrupt();
  try {
    const progress = createProgress({ clock: systemClock, stream: process.stderr, label: 'optimize', unit: 'trials', minimumMs: 0 });
    const finishedBefore = trialsFile?.finished.length ?? 0;
    if (plan.skipped.length > 0)
      process.stderr.write(
        `skipped ${plan.skipped.length} combination${plan.skipped.length === 1 ? '' : 's'} the strategy refuses (e.g. ${plan.skipped[0]!.reason})\n`,
      );
    if (finishedBefore > 0)
      process.stderr.write(`resuming: ${finishedBefore} of ${plan.trials.length} trials already finished in ${args.resume}\n`);
    progress.start(plan.trials.length);
    // The overfitting statistic of a big grid takes a while after the last trial: its own bar.
    const overfitting = createProgress({ clock: systemClock, stream: process.stderr, label: 'PBO', unit: 'parts' });
    let result: OptimizeResult;
    try {
      result = await optimize({
        plan,
        rules,
        executor,
        finished: trialsFile?.finished ?? [],
        signal: interrupt.signal,
        onOutcome: (outcome, done) => {
          trialsFile?.append(outcome);
          progress.update(done);
        },
        onOverfitting: (done, total) => {
          if (done === 0) progress.stop(), overfitting.start(total);
          else overfitting.update(done);
        },
      });
    } finally {
      progress.stop();
      overfitting.stop();
      trialsFile?.close();
      await executor.close();
    }
    // Without --resume every finished trial is one of this run.
    const keepTrials = (): string => saveTrials(`${inputs.strategy.name}.trials.jsonl`, identity, result.outcomes);
    let saved: string | undefined;
    if (result.interrupted && trialsFile === undefined && result.outcomes.length > 0) {
      saved = keepTrials();
      process.stderr.write(`interrupted: ${result.outcomes.length} finished trials saved to ${saved}; continue with --resume ${saved}\n`);
    } else if (result.interrupted) {
      process.stderr.write(
        `interrupted: ${result.outcomes.length} of ${plan.trials.length} trials finished${args.resume === undefined ? '' : `; continue with --resume ${args.resume}`}\n`,
      );
    }
    const bestEquity = async (): Promise<{ time: number; value: number }[]> => {
      const [best] = rankedOutcomes(result.outcomes, result.ranking, 1);
      if (best === undefined) return [];
      const combo = plan.trials.find((trial) => trial.index === best.index)!.combo;
      const { trialEquity } = await import('../../research/report/best-equity.js');
      return trialEquity({ definition: inputs.strategy.definition, data: inputs.data, risk: inputs.risk }, settings, combo);
    };
    try {
      const echo = optimizeSettings({ args, inputs, choice, strategyHash: strategyContent, dataHash });
      await writeOptimizeOutputs(args, { json, strategy: inputs.strategy.name, settings: echo }, result, rules, bestEquity);
    } catch (error) {
      // An output that could not be written (a full disk) must not cost the trials: a rerun with --resume
      // writes the outputs without running them again.
      if (trialsFile === undefined && saved === undefined && result.outcomes.length > 0) {
        try {
          saved = keepTrials();
        } catch {
          throw error;
        }
      }
      const file = args.resume ?? saved;
      if (file !== undefined)
        process.stderr.write(
          `the ${result.outcomes.length} finished trials are in ${file}: rerun with --resume ${file} to write the outputs without running them again\n`,
        );
      throw error;
    }
    if (result.stopped) process.exitCode = 130;
    // Every trial's strategy threw: nothing was optimized, and a script must be able to tell.
    else if (result.outcomes.length > 0 && completeRows(result.outcomes).length === 0) process.exitCode = 1;
    return result;
  } finally {
    interrupt.release();
  }
}

async function writeOptimizeOutputs(
  args: OptimizeArgs,
  { json, strategy, settings }: { readonly json: string | undefined; readonly strategy: string; readonly settings: OptimizeSettings },
  result: OptimizeResult,
  rules: RankingRules,
  bestEquity: () => Promise<{ time: number; value: number }[]>,
): Promise<void> {
  const top = args.top ?? 10;
  if (json !== '-' && args.csv !== '-' && args.quiet !== true) process.stdout.write(summaryText(result, rules, top));
  // Without the table the failures would go unsaid: stdout is a script's JSON or CSV then.
  else for (const line of failureLines(result)) process.stderr.write(`warning: ${line}\n`);
  if (json !== undefined) {
    const text = `${JSON.stringify(optimizeDocument(strategy, settings, result, rules, top), null, 2)}\n`;
    if (json === '-') process.stdout.write(text);
    else writeTextFile(json, text), process.stderr.write(`wrote ${json}\n`);
  }
  if (args.csv === '-') await writeChunks(process.stdout, csvLines(result));
  else if (args.csv !== undefined) {
    writeChunksToFile(args.csv, csvLines(result));
    process.stderr.write(`wrote ${args.csv}\n`);
  }
  if (args.report !== undefined) {
    const { renderOptimizeReport } = await import('../../research/report/optimize-report.js');
    writeTextFile(args.report, await renderOptimizeReport({ strategy, result, rules, bestEquity: await bestEquity() }));
    process.stderr.write(`wrote ${args.report}\n`);
  }
}

function summaryText(result: OptimizeResult, rules: RankingRules, top: number): string {
  const { plan, ranking, overfitting } = result;
  const excluded = Object.entries(ranking.excluded).map(([reason, count]) => `${reason} ×${count}`);
  const lines = [
    `${result.outcomes.length} of ${plan.trials.length} trials finished (space ${plan.spaceSize}, skipped ${plan.skipped.length}); ranked ${ranking.rows.length}${excluded.length === 0 ? '' : `, excluded: ${excluded.join(', ')}`}`,
    ...failureLines(result),
    `objective: ${rules.objective.metric} (${rules.objective.direction})`,
    '',
    ranking.rows.length === 0 ? nothingRanked(result) : formatTable(result, rules, top),
    '',
    overfitting.pbo === null
      ? `Probability of backtest overfitting: — (${pboMissing(result)})`
      : `Probability of backtest overfitting (CSCV, ${overfitting.pbo.splits} splits): ${overfitting.pbo.probability.toFixed(3)}`,
    overfitting.deflatedSharpe === null
      ? `Deflated Sharpe ratio of the best: — (${deflatedSharpeMissing(result)})`
      : `Deflated Sharpe ratio of the best (probability its Sharpe > the luck of ${overfitting.deflatedSharpe.trials} trials): ${overfitting.deflatedSharpe.probability.toFixed(3)}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Why no trial is ranked: none finished, or each was left out (failed, a constraint, too few trades…). */
function nothingRanked(result: OptimizeResult): string {
  if (result.outcomes.length === 0) return 'No trial finished.';
  const reasons = Object.entries(result.ranking.excluded).map(([reason, count]) => `${reason} ×${count}`);
  return `No trial can be ranked (left out: ${reasons.join(', ')}).`;
}

/** Why the run has no PBO: it needs two finished trials and returns to split that tell them apart. */
function pboMissing(result: OptimizeResult): string {
  if (result.stopped) return 'left out: stopped';
  const complete = completeRows(result.outcomes).length;
  if (complete < 2) return `it needs 2 finished trials or more${failedNote(result)}, ${complete} finished`;
  return result.overfitting.pboMissing ?? 'too few returns to split into blocks';
}

/** Trials whose strategy threw do not count for the overfitting statistics (their returns stop early). */
function failedNote(result: OptimizeResult): string {
  return (result.ranking.excluded[STRATEGY_FAILED] ?? 0) > 0 ? ' whose strategy did not fail' : '';
}

/** Why the best trial has no deflated Sharpe ratio. */
function deflatedSharpeMissing(result: OptimizeResult): string {
  if (result.ranking.rows.length === 0) return 'no trial ranked';
  const complete = completeRows(result.outcomes).length;
  if (complete < 2) return `it needs 2 finished trials or more${failedNote(result)}, ${complete} finished`;
  return "undefined for the best trial's returns (too few, or too skewed)";
}

/** The first trial whose strategy threw, when any did: those trials are not ranked. */
export function failureLines(result: OptimizeResult): string[] {
  const { outcomes } = result;
  const failed = result.ranking.excluded[STRATEGY_FAILED] ?? 0;
  if (failed === 0) return [];
  for (let row = 0; row < outcomes.length; row += 1) {
    const failure = outcomes.failure(row);
    if (failure === null) continue;
    const params = outcomes
      .paramNames()
      .map((name) => `${name}=${outcomes.param(row, name)}`)
      .join(' ');
    // A strategy without params has nothing to name the trial by.
    const example = params === '' ? '' : `, e.g. ${params}`;
    return [`the strategy failed in ${failed} trial${failed === 1 ? '' : 's'} (not ranked)${example}: ${failure}`];
  }
  return [];
}

export const optimizeCommand: CommandModule<object, OptimizeArgs> = {
  command: 'optimize <strategy>',
  describe: 'Search strategy parameters: backtest every combination on every core (or on queue workers) and rank them',
  builder: (yargs) =>
    jsonTakesAValue(yargs)
      .positional('strategy', { type: 'string', demandOption: true, describe: 'Strategy file (.ts or .js)' })
      .options(BACKTEST_OPTIONS)
      .options(SEARCH_OPTIONS)
      .option('blocks', blocksOption('the probability of backtest overfitting'))
      .option('top', TOP_OPTION)
      .option('resume', { type: 'string', describe: 'Trials file: finished trials are appended to it, and a rerun continues from it' })
      .option('json', { type: 'string', nargs: 1, describe: 'Write the ranking as JSON to FILE, or to stdout with -' })
      .option('csv', {
        type: 'string',
        nargs: 1,
        describe: 'Write every finished trial (params and metrics) as CSV to FILE, or to stdout with -',
      })
      .option('report', { type: 'string', describe: 'Write a self-contained HTML report (heatmap, objective vs drawdown, best equity)' })
      .option('quiet', { type: 'boolean', describe: 'No table on the terminal' })
      .example('$0 optimize strategies/sma-crossover.ts --param fast=5:30:5 --param slow=20:100:10', 'Grid search, ranked by Sharpe')
      .example(
        "$0 optimize strategies/sma-crossover.ts --param fast=2:50 --param slow=10:200 --search random --trials 500 --seed 7 --objective calmar --constraint 'maxDrawdown<0.2' --min-trades 10",
        'Random search with an objective and constraints',
      )
      .example(
        '$0 optimize strategies/sma-crossover.ts --param fast=5:30:5 --param slow=20:100:10 --resume sma.trials.jsonl',
        'Keep trials; rerun to continue after Ctrl-C',
      )
      .example(
        '$0 optimize strategies/sma-crossover.ts --param fast=5:30 --queue redis://10.0.0.5:6379/0',
        'Run the trials on `trader worker` machines',
      ),
  handler: async (args) => {
    await optimizeAction(args);
  },
};

/** The trials of a plan limited to --from/--to (each given the range as its window), or the plan as it is. */
function withinRange(plan: TrialPlan, inputs: BacktestInputs): TrialPlan {
  const range = inputs.range === undefined ? undefined : finiteRange(inputs.range, inputs.allData);
  return range === undefined ? plan : { ...plan, trials: plan.trials.map((trial) => ({ ...trial, range })) };
}

/**
 * A search of one combination (no --param range) runs, but says so: it ranks nothing, and a forgotten range
 * should not pass for a search.
 */
export function noteSingleCombination(
  plan: TrialPlan,
  given: readonly unknown[] | undefined,
  defaults: Readonly<Record<string, unknown>>,
): void {
  if (plan.spaceSize !== 1) return;
  const example = `--param ${Object.keys(defaults)[0] ?? 'NAME'}=START:END:STEP`;
  process.stderr.write(
    (given ?? []).length === 0
      ? `note: no --param ranges: one trial of the strategy's defaults, nothing searched; give ranges, e.g. ${example}\n`
      : `note: the --param values make one combination, nothing searched; give a range, e.g. ${example}\n`,
  );
}

/** A search whose every combination the strategy refuses (a typo in --param, say) is a mistake, not a result. */
export function refuseEmptyPlan(plan: TrialPlan): void {
  if (plan.trials.length > 0 || plan.skipped.length === 0) return;
  throw new InvalidInputError(
    `the strategy refuses every combination of the --param ranges (${plan.skipped.length}; e.g. ${plan.skipped[0]!.reason}); check the names and values`,
    '--param',
  );
}
