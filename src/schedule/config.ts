// Loads a schedule config (YAML or JSON), checks it strictly and reports every problem at once with its path.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { InvalidInputError } from '../domain/errors.js';
import { timeZoneOf } from '../domain/market-hours.js';
import type { PriceAdjustment } from '../domain/corporate-action.js';
import type { Period } from '../domain/period.js';
import { marketOf, type Market, type SecuritySymbol } from '../domain/symbol.js';
import { rawConfigSchema, rawJobSchema, type RawConfig, type RawJob } from './config-schema.js';
import { formatPath, lineOf, ScheduleConfigError, type ConfigProblem, type PathSegment } from './config-problems.js';
import { parseCron } from './cron.js';
import type { BackoffSettings, JobTarget, JobTrigger, RestartPolicy, ScheduleJob } from './job.js';

export interface NotifySettings {
  readonly webhook: string;
  readonly attempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly timeoutMs: number;
  readonly queueLimit: number;
}

/** The dashboard's settings from the config (`ui:`); flags of `trader schedule` override them. */
export interface UiConfig {
  readonly port: number | undefined;
  readonly host: string | undefined;
  /** Absolute. */
  readonly tokenFile: string | undefined;
  readonly readOnly: boolean | undefined;
  readonly metricsPort: number | undefined;
}

export interface TelegramConfig {
  readonly chats: readonly number[];
  readonly apiRoot: string | undefined;
}

/** The built-in simulator of a paper schedule (paths absolute). */
export interface PaperSettings {
  readonly data: readonly string[];
  readonly from: string | undefined;
  /** Market time per wall time; 1 replays at the market's own pace. */
  readonly speed: number;
  readonly cash: string;
  /** Bad CSV rows: fail (the default) or skip. */
  readonly onBadRow: 'fail' | 'skip';
  /** Sells beyond the position open shorts. */
  readonly shortSelling: boolean;
  /** Annual borrow fee on short value (a fraction), charged per calendar day held. */
  readonly borrowFeeRate: number;
  /** Margin factors of short positions; null: the symbol's own. */
  readonly shortMarginRatios: { readonly im: number; readonly mm: number; readonly fm: number } | null;
  /** What the data's prices are: none (dividends and splits beside the data are applied) or forward. */
  readonly adjust: PriceAdjustment;
}

export interface ScheduleConfig {
  /** Absolute path of the config file; relative paths in it are resolved against its folder. */
  readonly file: string;
  readonly mode: 'paper' | 'live';
  readonly journal: string;
  readonly stateDir: string;
  /** Paper mode only. */
  readonly paper: PaperSettings | undefined;
  /** Risk limits, passed through as written (or as parsed by the injected risk schema). */
  readonly risk: Readonly<Record<string, unknown>>;
  readonly notify: NotifySettings | undefined;
  readonly healthPort: number | undefined;
  readonly ui: UiConfig | undefined;
  readonly telegram: TelegramConfig | undefined;
  readonly outageLimitMs: number;
  readonly tokenRefreshLeadMs: number;
  readonly stopTimeoutMs: number;
  /** How often the account (balances, positions) is read for the kill switch and the status. */
  readonly accountCheckMs: number;
  readonly calendar: { readonly cacheFile: string; readonly ttlMs: number };
  readonly jobs: readonly ScheduleJob[];
}

/** What a strategy job asks of its strategy file: checked at load (see ConfigOptions.checkStrategy). */
export interface StrategyJobSpec {
  /** Absolute path of the strategy file (it exists). */
  readonly path: string;
  readonly symbols: readonly SecuritySymbol[] | undefined;
  readonly period: Period | undefined;
  readonly params: Readonly<Record<string, number | string | boolean>> | undefined;
}

/** A problem of a job's strategy: the job key it comes from (`strategy` when the file cannot be used) and why. */
export interface StrategyProblem {
  readonly key: 'strategy' | 'params' | 'symbols' | 'period';
  readonly message: string;
}

export interface ConfigOptions {
  /** The runtime's risk-limits schema; without it `risk` is only checked to be an object. */
  readonly riskSchema?: z.ZodType<Record<string, unknown>>;
  /** Check that strategy files exist, and (loadScheduleConfig) that the paper data does (default true). */
  readonly checkFiles?: boolean;
  /**
   * Loads a job's strategy with the job's symbols, period and params and says what is wrong, so a bad param
   * is reported at load with every other problem (loadScheduleConfig only; it runs for each job whose file
   * exists and whose symbols, period and params are well-formed).
   */
  readonly checkStrategy?: (job: StrategyJobSpec) => Promise<StrategyProblem | undefined>;
  /** Overrides the file's `stateDir` (the `--state` flag); relative to the working folder. */
  readonly stateDir?: string;
}

const DEFAULT_RESTART = { maxRestarts: 5, windowMs: 30 * 60_000, initialMs: 1000, maxMs: 5 * 60_000 } as const;
const DEFAULT_RUN_FOR_MS = 3_600_000;
const DEFAULT_PAPER = { data: 'backtest-data', speed: 1, cash: '1000000' } as const;
const DEFAULT_FETCH = { period: 'day', lookbackMs: 30 * 86_400_000, dataDir: 'data' } as const;

export async function loadScheduleConfig(file: string, options: ConfigOptions = {}): Promise<ScheduleConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InvalidInputError(
      `cannot read schedule config ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'config',
    );
  }
  const read = readScheduleConfig(text, file, options, options.checkFiles !== false);
  if (options.checkStrategy !== undefined) {
    for (const { index, spec } of read.strategies) {
      const problem = await options.checkStrategy(spec);
      if (problem !== undefined) read.report(['jobs', index, problem.key], problem.message);
    }
  }
  return read.finish();
}

/** Parses config text; `file` names it in errors and anchors its relative paths (the paper data is not looked for). */
export function parseScheduleConfig(text: string, file: string, options: ConfigOptions = {}): ScheduleConfig {
  return readScheduleConfig(text, file, options, false).finish();
}

interface ConfigReading {
  /** The strategy jobs whose strategy can be checked, by job index. */
  readonly strategies: readonly { readonly index: number; readonly spec: StrategyJobSpec }[];
  /** Adds a problem at a path of the file. */
  report(segments: readonly PathSegment[], message: string): void;
  /** The config, or every problem found at once. */
  finish(): ScheduleConfig;
}

function readScheduleConfig(text: string, file: string, options: ConfigOptions, checkData: boolean): ConfigReading {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  if (document.errors.length > 0) {
    throw new ScheduleConfigError(
      file,
      document.errors.map((error) => ({ path: '', line: error.linePos?.[0].line, message: `syntax: ${error.message.split('\n')[0]}` })),
    );
  }
  const problems: ConfigProblem[] = [];
  const report = (segments: readonly PathSegment[], message: string): void => {
    problems.push({ path: formatPath(segments), line: lineOf(document, lineCounter, segments), message });
  };
  const collect = (issues: readonly z.core.$ZodIssue[], prefix: readonly PathSegment[]): void => {
    for (const issue of issues) {
      const at = [...prefix, ...(issue.path as PathSegment[])];
      if (issue.code === 'unrecognized_keys') for (const key of issue.keys) report([...at, key], `unknown key "${key}"`);
      else report(at, issue.message);
    }
  };

  const raw: unknown = document.toJS();
  if (raw === null || raw === undefined)
    throw new ScheduleConfigError(file, [{ path: '', line: undefined, message: 'the file is empty: it needs at least a "jobs" list' }]);
  const top = rawConfigSchema.safeParse(raw, { error: typeMessage });
  if (!top.success) collect(top.error.issues, []);
  const rawJobs: readonly unknown[] = isRecord(raw) && Array.isArray(raw['jobs']) ? raw['jobs'] : [];
  if (isRecord(raw) && raw['mode'] === 'live' && raw['paper'] !== undefined)
    report(['paper'], 'applies only to mode: paper (a live schedule trades the real account)');
  const parsedJobs = rawJobs.map((job, index) => {
    const parsed = rawJobSchema.safeParse(job, { error: typeMessage });
    if (parsed.success) return { job: parsed.data, complete: true, present: (key: keyof RawJob) => parsed.data[key] !== undefined };
    collect(parsed.error.issues, ['jobs', index]);
    // The fields that are fine still go through the cross-field checks: one bad field hides nothing else.
    const partial = wellFormedFields(job, parsed.error.issues);
    return partial === undefined ? undefined : { ...partial, complete: false };
  });
  reportDuplicateNames(rawJobs, report);
  let risk: Readonly<Record<string, unknown>> = top.success ? top.data.risk : {};
  if (options.riskSchema !== undefined && isRecord(raw) && isRecord(raw['risk'])) {
    const parsedRisk = options.riskSchema.safeParse(raw['risk']);
    if (parsedRisk.success) risk = parsedRisk.data;
    else collect(parsedRisk.error.issues, ['risk']);
  }

  const baseDir = path.dirname(path.resolve(file));
  const checkFiles = options.checkFiles !== false;
  const jobs: ScheduleJob[] = [];
  const strategies: { index: number; spec: StrategyJobSpec }[] = [];
  parsedJobs.forEach((parsed, index) => {
    if (parsed === undefined) return;
    const { job, complete, present } = parsed;
    const strategyFile = job.strategy === undefined ? undefined : path.resolve(baseDir, job.strategy);
    const fileFound = strategyFile !== undefined && existsSync(strategyFile);
    if (strategyFile !== undefined && !fileFound && checkFiles) report(['jobs', index, 'strategy'], `file not found: ${strategyFile}`);
    const wellFormed = (key: keyof RawJob): boolean => !present(key) || job[key] !== undefined;
    if (fileFound && !present('task') && wellFormed('symbols') && wellFormed('period') && wellFormed('params'))
      strategies.push({ index, spec: { path: strategyFile, symbols: job.symbols, period: job.period, params: job.params } });
    const resolved = resolveJob(job, present, complete, top.success ? top.data : undefined, baseDir, (segments, message) =>
      report(['jobs', index, ...segments], message),
    );
    if (resolved !== undefined) jobs.push(resolved);
  });
  // Paper mode only (a mode that is not understood is reported already: what it meant is unknown).
  if (checkData && isRecord(raw) && (raw['mode'] === undefined || raw['mode'] === 'paper'))
    reportMissingData(raw['paper'], baseDir, report);

  return {
    strategies,
    report,
    finish: () => {
      if (problems.length > 0 || !top.success) throw new ScheduleConfigError(file, sortByLine(problems));
      return buildConfig(top.data, file, baseDir, risk, jobs, options);
    },
  };
}

function buildConfig(
  config: RawConfig,
  file: string,
  baseDir: string,
  risk: Readonly<Record<string, unknown>>,
  jobs: readonly ScheduleJob[],
  options: ConfigOptions,
): ScheduleConfig {
  const stateDir = options.stateDir === undefined ? path.resolve(baseDir, config.stateDir) : path.resolve(options.stateDir);
  const defaultJournal = path.join(stateDir, config.mode === 'paper' ? 'paper-journal.sqlite' : 'journal.sqlite');
  return {
    file: path.resolve(file),
    mode: config.mode,
    journal: config.journal === undefined ? defaultJournal : path.resolve(baseDir, config.journal),
    stateDir,
    paper: config.mode === 'live' ? undefined : paperSettings(config.paper, baseDir),
    risk,
    notify:
      config.notify === undefined
        ? undefined
        : {
            webhook: config.notify.webhook,
            attempts: config.notify.retry?.attempts ?? 5,
            initialDelayMs: config.notify.retry?.initialDelay ?? 1000,
            maxDelayMs: config.notify.retry?.maxDelay ?? 60_000,
            timeoutMs: config.notify.timeout ?? 10_000,
            queueLimit: config.notify.queueLimit ?? 1000,
          },
    healthPort: config.healthPort,
    ui: uiConfig(config.ui, baseDir),
    telegram: config.telegram === undefined ? undefined : { chats: config.telegram.chats, apiRoot: config.telegram.apiRoot },
    outageLimitMs: config.outageLimit,
    tokenRefreshLeadMs: config.tokenRefreshLead,
    stopTimeoutMs: config.stopTimeout,
    accountCheckMs: config.accountCheck,
    calendar: {
      cacheFile: path.resolve(baseDir, config.calendar?.cacheFile ?? path.join(stateDir, 'trading-days.json')),
      ttlMs: config.calendar?.ttl ?? 24 * 3_600_000,
    },
    jobs,
  };
}

type Report = (segments: readonly PathSegment[], message: string) => void;

/**
 * The cross-field rules of a job; reports through `report` and returns undefined when the job is unusable.
 * `job` holds the well-formed fields; `present` says which keys the file gives (well-formed or not), so a
 * malformed field still counts as given and is not reported twice.
 */
function resolveJob(
  job: Partial<RawJob>,
  present: (key: keyof RawJob) => boolean,
  complete: boolean,
  config: RawConfig | undefined,
  baseDir: string,
  reportProblem: Report,
): ScheduleJob | undefined {
  let failed = !complete;
  const report: Report = (segments, message) => {
    failed = true;
    reportProblem(segments, message);
  };
  if (present('strategy') === present('task')) report([], 'a job needs exactly one of "strategy" or "task"');
  if (present('cron') && (present('start') || present('stop'))) report(['cron'], 'use either "cron" or "start"/"stop", not both');
  else if (present('start') && !present('stop')) report(['start'], '"start" requires "stop"');
  else if (present('stop') && !present('start')) report(['stop'], '"stop" requires "start"');
  else if (!present('cron') && !present('start')) report([], 'a job needs "cron", or "start" and "stop"');
  if (present('task') && present('start')) report(['start'], 'a task runs once per fire: use "cron", not "start"/"stop"');
  if (present('flattenAtStop') && present('cron')) report(['flattenAtStop'], 'applies only to start/stop windows');
  if (job.task === 'fetch-data' && (job.symbols === undefined ? !present('symbols') : job.symbols.length === 0))
    report(['symbols'], 'fetch-data needs at least one symbol');
  if (present('runFor') && (present('task') || !present('cron')))
    report(['runFor'], 'applies only to cron-fired strategy jobs (a window run ends at its stop)');
  // A malformed task is reported already; whether it meant fetch-data is unknown.
  const notFetch = present('task') ? job.task !== undefined && job.task !== 'fetch-data' : true;
  for (const key of ['lookback', 'dataDir'] as const) if (present(key) && notFetch) report([key], 'applies only to the fetch-data task');
  const market = resolveMarket(job, present, report);
  if (failed || market === undefined) return undefined;
  const valid = job as RawJob;

  const trigger: JobTrigger =
    valid.cron !== undefined
      ? { kind: 'cron', cron: parseCron(valid.cron) }
      : { kind: 'window', start: parseCron(valid.start!), stop: parseCron(valid.stop!) };
  const target: JobTarget =
    valid.strategy !== undefined
      ? {
          kind: 'strategy',
          path: path.resolve(baseDir, valid.strategy),
          period: valid.period,
          runForMs: valid.runFor ?? DEFAULT_RUN_FOR_MS,
        }
      : {
          kind: 'task',
          task: valid.task!,
          fetch: {
            period: valid.period ?? DEFAULT_FETCH.period,
            lookbackMs: valid.lookback ?? DEFAULT_FETCH.lookbackMs,
            dataDir: path.resolve(baseDir, valid.dataDir ?? DEFAULT_FETCH.dataDir),
          },
        };
  return {
    name: valid.name,
    target,
    symbols: valid.symbols ?? [],
    params: valid.params ?? {},
    market,
    timezone: valid.timezone ?? config?.timezone ?? timeZoneOf(market),
    trigger,
    days: valid.days ?? 'trading',
    flattenAtStop: valid.flattenAtStop ?? false,
    restart: restartPolicy(valid, config),
  };
}

/**
 * The well-formed fields of a job that failed its schema (those with a problem, and unknown keys, left out),
 * and which keys the file gave; undefined when the job is not even a mapping.
 */
function wellFormedFields(
  raw: unknown,
  issues: readonly z.core.$ZodIssue[],
): { job: Partial<RawJob>; present: (key: keyof RawJob) => boolean } | undefined {
  if (!isRecord(raw)) return undefined;
  const bad = new Set<string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.path.length === 0) for (const key of issue.keys) bad.add(key);
    else if (typeof issue.path[0] === 'string') bad.add(issue.path[0]);
  }
  const known = new Set(Object.keys(rawJobSchema.shape));
  const fine = Object.fromEntries(Object.entries(raw).filter(([key]) => known.has(key) && !bad.has(key)));
  const parsed = rawJobSchema.partial().safeParse(fine);
  if (!parsed.success) return undefined;
  return { job: parsed.data, present: (key) => raw[key] !== undefined };
}

function resolveMarket(job: Partial<RawJob>, present: (key: keyof RawJob) => boolean, report: Report): Market | undefined {
  if (present('market')) return job.market;
  // Malformed symbols are reported already: which markets they meant is unknown.
  if (present('symbols') && job.symbols === undefined) return undefined;
  const markets = [...new Set((job.symbols ?? []).map(marketOf))];
  if (markets.length === 1) return markets[0];
  if (markets.length === 0) report(['market'], 'required when the job has no symbols (HK, US, CN or SG)');
  else report(['market'], `required: the symbols span several markets (${markets.join(', ')}); name the one whose trading days apply`);
  return undefined;
}

function uiConfig(ui: RawConfig['ui'], baseDir: string): UiConfig | undefined {
  if (ui === undefined || ui === false) return undefined;
  const settings = ui === true ? {} : ui;
  return {
    port: settings.port,
    host: settings.host,
    tokenFile: settings.tokenFile === undefined ? undefined : path.resolve(baseDir, settings.tokenFile),
    readOnly: settings.readOnly,
    metricsPort: settings.metricsPort,
  };
}

/** Paper data folders or files that do not exist (read from the file as written, whatever else is wrong in it). */
function reportMissingData(paper: unknown, baseDir: string, report: Report): void {
  const given = isRecord(paper) ? paper['data'] : undefined;
  const entries = given === undefined ? [DEFAULT_PAPER.data] : typeof given === 'string' ? [given] : Array.isArray(given) ? given : [];
  entries.forEach((entry, index) => {
    if (typeof entry !== 'string' || entry === '') return;
    const folder = path.resolve(baseDir, entry);
    if (existsSync(folder)) return;
    const at = given === undefined ? ['paper'] : typeof given === 'string' ? ['paper', 'data'] : ['paper', 'data', index];
    report(at, `candle data not found: ${folder}${given === undefined ? ' (the default: set paper.data)' : ''}`);
  });
}

function paperSettings(paper: RawConfig['paper'], baseDir: string): PaperSettings {
  const data = paper?.data ?? DEFAULT_PAPER.data;
  return {
    data: (typeof data === 'string' ? [data] : data).map((entry) => path.resolve(baseDir, entry)),
    from: paper?.from,
    speed: paper?.speed ?? DEFAULT_PAPER.speed,
    cash: String(paper?.cash ?? DEFAULT_PAPER.cash),
    onBadRow: paper?.onBadRow ?? 'fail',
    shortSelling: paper?.short ?? false,
    borrowFeeRate: paper?.borrowRate ?? 0,
    shortMarginRatios: paper?.shortMargin ?? null,
    adjust: paper?.adjust ?? 'none',
  };
}

function restartPolicy(job: RawJob, config: RawConfig | undefined): RestartPolicy {
  const shared = config?.restart;
  const backoff: BackoffSettings = {
    initialMs: job.backoff?.initial ?? shared?.backoff?.initial ?? DEFAULT_RESTART.initialMs,
    maxMs: job.backoff?.max ?? shared?.backoff?.max ?? DEFAULT_RESTART.maxMs,
    jitter: job.backoff?.jitter ?? shared?.backoff?.jitter ?? true,
  };
  return {
    maxRestarts: job.maxRestarts ?? shared?.maxRestarts ?? DEFAULT_RESTART.maxRestarts,
    windowMs: shared?.window ?? DEFAULT_RESTART.windowMs,
    backoff,
  };
}

function reportDuplicateNames(jobs: readonly unknown[], report: Report): void {
  const seen = new Map<string, number>();
  jobs.forEach((job, index) => {
    const name = isRecord(job) ? job['name'] : undefined;
    if (typeof name !== 'string') return;
    const first = seen.get(name);
    if (first === undefined) seen.set(name, index);
    else report(['jobs', index, 'name'], `duplicate job name "${name}" (also jobs[${first}])`);
  });
}

function sortByLine(problems: readonly ConfigProblem[]): ConfigProblem[] {
  return [...problems].sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
}

// Plainer words than zod's defaults for values of the wrong type, in YAML terms.
function typeMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'required';
  const names: Record<string, string> = { array: 'a list', object: 'a mapping (key: value)', record: 'a mapping (key: value)' };
  const got = Array.isArray(issue.input)
    ? 'a list'
    : issue.input === null
      ? 'nothing'
      : typeof issue.input === 'object'
        ? 'a mapping'
        : `${typeof issue.input} ${JSON.stringify(issue.input)}`;
  return `expected ${names[issue.expected] ?? issue.expected}, got ${got}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
