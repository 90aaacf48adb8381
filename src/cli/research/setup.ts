// What optimize and walkforward share on the command line: their flags beyond the backtest's, the trial
// settings from those flags, and the executor (the local pool, or the Redis queue with --queue).
import { relative, resolve } from 'node:path';
import type { Options } from 'yargs';
import type { BacktestData } from '../../backtest/data.js';
import { CLEAR_LINE } from '../../backtest/progress.js';
import { corporateActionToJson } from '../../domain/corporate-action.js';
import { InvalidInputError } from '../../domain/errors.js';
import { dataHash } from '../../research/data-hash.js';
import type { TrialExecutor } from '../../research/executor.js';
import { createInProcessExecutor } from '../../research/in-process.js';
import {
  type Constraint,
  LOWER_IS_BETTER,
  OBJECTIVE_NAMES,
  type Objective,
  parseConstraint,
  parseObjective,
} from '../../research/objective.js';
import { parseParamSpace, type ParamSpace } from '../../research/param-space.js';
import { createLocalPool, defaultWorkers } from '../../research/pool/local-pool.js';
import { QUEUE_WINDOW } from '../../research/queue/limits.js';
import { shareData } from '../../research/shared-data.js';
import type { TrialContext, TrialSettings } from '../../research/trial.js';
import type { BacktestArgs } from '../backtest/flags.js';
import type { BacktestInputs } from '../backtest/inputs.js';
import { parseSeed, seedOption } from './seed.js';

// C(20, 10) = 184,756 splits, each ranking every trial; C(22, 11) would be 705,432.
const MAX_BLOCKS = 20;

export interface ResearchArgs extends BacktestArgs {
  readonly search?: string;
  readonly trials?: number;
  /** Text (see seed.ts); a number when called from code. */
  readonly seed?: string | number;
  readonly objective?: string;
  readonly constraint?: readonly string[];
  readonly 'min-trades'?: number;
  readonly workers?: number;
  readonly blocks?: number;
  readonly queue?: string;
  readonly 'queue-window'?: number;
  readonly top?: number;
}

export const SEARCH_OPTIONS = {
  param: {
    type: 'string',
    array: true,
    describe: 'A parameter to search: name=start:end:step (ends included), name=a,b,c or name=value (repeatable)',
  },
  search: { type: 'string', default: 'grid', describe: 'grid (every combination) or random (--trials of them, drawn with --seed)' },
  trials: { type: 'number', describe: 'Random search: how many combinations to try (default 100)' },
  seed: seedOption('Random search seed: the same seed gives the same trials and ranking'),
  objective: {
    type: 'string',
    default: 'sharpe',
    describe: `Metric to rank by, best first: ${OBJECTIVE_NAMES.join(', ')}; add :min or :max to choose the direction (${[...LOWER_IS_BETTER].join(', ')} are :min by default)`,
  },
  constraint: { type: 'string', array: true, describe: "A condition every ranked trial meets, e.g. 'maxDrawdown<0.2' (repeatable)" },
  'min-trades': { type: 'number', default: 0, describe: 'Rank only trials with at least N closed trades' },
  workers: {
    type: 'number',
    describe: 'Worker threads (default: the number of cores; a run of at most 500,000 bars walked in all runs in this thread)',
  },
  queue: { type: 'string', describe: 'Run the trials on `trader worker`s through Redis, e.g. redis://host:6379/0' },
  'queue-window': {
    type: 'number',
    describe: `With --queue: trials on the queue at once, more added as half of them finish (default ${QUEUE_WINDOW}; more than every worker's threads × 2 together)`,
  },
} as const satisfies Record<string, Options>;

/** --blocks: `what` says where its statistic shows (optimize prints it; walkforward has one per window in --json). */
export function blocksOption(what: string) {
  return { type: 'number', default: 16, describe: `Blocks of bars for ${what} (CSCV; even, at most 20)` } as const satisfies Options;
}

/** Optimize only: walkforward prints its windows, not a ranking. */
export const TOP_OPTION = { type: 'number', default: 10, describe: 'How many of the best trials to print' } as const satisfies Options;

export interface SearchChoice {
  readonly space: ParamSpace;
  readonly search: 'grid' | 'random';
  readonly trials: number | undefined;
  readonly seed: number;
  readonly objective: Objective;
  readonly constraints: readonly Constraint[];
  readonly minTrades: number;
  readonly workers: number;
  readonly blocks: number;
  readonly queueWindow: number | undefined;
}

export function searchChoice(args: ResearchArgs): SearchChoice {
  const search = String(args.search ?? 'grid');
  if (search !== 'grid' && search !== 'random') throw new InvalidInputError(`--search: grid or random, got ${search}`, 'search');
  const whole = (value: number | undefined, flag: string, min: number): number | undefined => {
    if (value === undefined) return undefined;
    if (!Number.isSafeInteger(value) || value < min) throw new InvalidInputError(`${flag}: a whole number ≥ ${min}, got ${value}`, flag);
    return value;
  };
  if (args.trials !== undefined && search !== 'random')
    throw new InvalidInputError('--trials: only with --search random (a grid runs every combination)', '--trials');
  if (args['queue-window'] !== undefined && args.queue === undefined)
    throw new InvalidInputError('--queue-window: only with --queue (the trials go to Redis a window at a time)', '--queue-window');
  // Optimize's (walkforward has no --top).
  whole(args.top, '--top', 1);
  const blocks = whole(args.blocks, '--blocks', 2) ?? 16;
  if (blocks % 2 !== 0 || blocks > MAX_BLOCKS)
    throw new InvalidInputError(`--blocks: an even number from 2 to ${MAX_BLOCKS}, got ${blocks}`, '--blocks');
  return {
    space: parseParamSpace((args.param ?? []).map(String)),
    search,
    trials: whole(args.trials, '--trials', 1),
    seed: parseSeed(args.seed),
    objective: parseObjective(String(args.objective ?? 'sharpe')),
    constraints: (args.constraint ?? []).map((text) => parseConstraint(String(text))),
    minTrades: whole(args['min-trades'], '--min-trades', 0) ?? 0,
    workers: whole(args.workers, '--workers', 1) ?? defaultWorkers(),
    blocks,
    queueWindow: whole(args['queue-window'], '--queue-window', 1),
  };
}

export function trialSettings(args: ResearchArgs, inputs: BacktestInputs, blocks: number): TrialSettings {
  return {
    strategyFile: resolve(args.strategy),
    symbols: inputs.strategy.symbols,
    ...(args.period === undefined ? {} : { period: args.period }),
    cash: inputs.cash.toFixed(),
    venue: inputs.venue.settings,
    ...(inputs.actions.length === 0 ? {} : { actions: inputs.actions.map(corporateActionToJson) }),
    ...(args.risk === undefined ? {} : { riskFile: resolve(args.risk) }),
    riskFreeRate: inputs.riskFreeRate,
    blocks,
    fixed: {},
  };
}

export interface ExecutorChoice {
  readonly executor: TrialExecutor;
  readonly dataHash: string;
}

/**
 * Without --workers, a run of at most this many bars walked in all (trials × bars) runs in this thread:
 * about half a second of trials, less than worker threads take to start and warm up.
 */
export const IN_PROCESS_MAX_BARS_WALKED = 500_000;

/** Whether `trials` trials over `bars` bars run in this thread rather than on worker threads. */
export function runsInThisThread(workersFlag: number | undefined, trials: number, bars: number): boolean {
  return workersFlag === undefined && trials * bars <= IN_PROCESS_MAX_BARS_WALKED;
}

export async function createExecutor(
  args: ResearchArgs,
  inputs: { readonly data: BacktestData; readonly dataPath: string; readonly context: TrialContext; readonly trials: number },
  settings: TrialSettings,
  choice: Pick<SearchChoice, 'workers' | 'queueWindow'>,
): Promise<ExecutorChoice> {
  const { data, dataPath } = inputs;
  const hash = dataHash(data);
  if (args.queue !== undefined) {
    const { createQueueExecutor } = await import('../../research/queue/submitter.js');
    const { strategyHash } = await import('../../research/strategy-hash.js');
    const { fileHash } = await import('../../research/file-hash.js');
    // Workers open the files relative to their own working folder: the same layout on every machine.
    const local = (path: string): string => relative(process.cwd(), path);
    const shared = {
      ...settings,
      strategyFile: local(settings.strategyFile),
      ...(settings.riskFile === undefined ? {} : { riskFile: local(settings.riskFile) }),
    };
    return {
      executor: await createQueueExecutor({
        url: String(args.queue),
        settings: shared,
        dataHash: hash,
        strategyHash: await strategyHash(settings.strategyFile),
        ...(settings.riskFile === undefined ? {} : { riskHash: await fileHash(settings.riskFile) }),
        dataPath: local(resolve(dataPath)),
        ...(choice.queueWindow === undefined ? {} : { window: choice.queueWindow }),
        // A line of its own above the progress bar (cleared first on a terminal).
        onNotice: (message) => process.stderr.write(`${process.stderr.isTTY ? CLEAR_LINE : ''}queue: ${message}\n`),
      }),
      dataHash: hash,
    };
  }
  const bars = data.series.reduce((sum, series) => sum + series.columns.length, 0);
  if (runsInThisThread(args.workers, inputs.trials, bars))
    return { executor: createInProcessExecutor(inputs.context, settings), dataHash: hash };
  return { executor: createLocalPool({ workers: choice.workers, settings, data: shareData(data, hash) }), dataHash: hash };
}
