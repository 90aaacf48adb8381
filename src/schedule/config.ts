// Loads a schedule config (YAML or JSON), checks it strictly and reports every problem at once with its path.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { InvalidInputError } from '../domain/errors.js';
import { timeZoneOf } from '../domain/market-hours.js';
import { marketOf, type Market } from '../domain/symbol.js';
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

export interface ConfigOptions {
  /** The runtime's risk-limits schema; without it `risk` is only checked to be an object. */
  readonly riskSchema?: z.ZodType<Record<string, unknown>>;
  /** Check that strategy files exist (default true). */
  readonly checkFiles?: boolean;
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
  return parseScheduleConfig(text, file, options);
}

/** Parses config text; `file` names it in errors and anchors its relative paths. */
export function parseScheduleConfig(text: string, file: string, options: ConfigOptions = {}): ScheduleConfig {
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
    if (!parsed.success) collect(parsed.error.issues, ['jobs', index]);
    return parsed.success ? parsed.data : undefined;
  });
  reportDuplicateNames(rawJobs, report);
  let risk: Readonly<Record<string, unknown>> = top.success ? top.data.risk : {};
  if (options.riskSchema !== undefined && isRecord(raw) && isRecord(raw['risk'])) {
    const parsedRisk = options.riskSchema.safeParse(raw['risk']);
    if (parsedRisk.success) risk = parsedRisk.data;
    else collect(parsedRisk.error.issues, ['risk']);
  }

  const baseDir = path.dirname(path.resolve(file));
  const jobs: ScheduleJob[] = [];
  parsedJobs.forEach((job, index) => {
    if (job === undefined) return;
    const strategyFile = job.strategy === undefined ? undefined : path.resolve(baseDir, job.strategy);
    if (strategyFile !== undefined && options.checkFiles !== false && !existsSync(strategyFile))
      report(['jobs', index, 'strategy'], `file not found: ${strategyFile}`);
    const resolved = resolveJob(job, top.success ? top.data : undefined, baseDir, (segments, message) =>
      report(['jobs', index, ...segments], message),
    );
    if (resolved !== undefined) jobs.push(resolved);
  });

  if (problems.length > 0 || !top.success) throw new ScheduleConfigError(file, sortByLine(problems));
  const config = top.data;
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

// The cross-field rules of a job; reports through `report` and returns undefined when the job is unusable.
function resolveJob(job: RawJob, config: RawConfig | undefined, baseDir: string, reportProblem: Report): ScheduleJob | undefined {
  let failed = false;
  const report: Report = (segments, message) => {
    failed = true;
    reportProblem(segments, message);
  };
  if ((job.strategy === undefined) === (job.task === undefined)) report([], 'a job needs exactly one of "strategy" or "task"');
  if (job.cron !== undefined && (job.start !== undefined || job.stop !== undefined))
    report(['cron'], 'use either "cron" or "start"/"stop", not both');
  else if (job.start !== undefined && job.stop === undefined) report(['start'], '"start" requires "stop"');
  else if (job.stop !== undefined && job.start === undefined) report(['stop'], '"stop" requires "start"');
  else if (job.cron === undefined && job.start === undefined) report([], 'a job needs "cron", or "start" and "stop"');
  if (job.task !== undefined && job.start !== undefined) report(['start'], 'a task runs once per fire: use "cron", not "start"/"stop"');
  if (job.flattenAtStop !== undefined && job.cron !== undefined) report(['flattenAtStop'], 'applies only to start/stop windows');
  if (job.task === 'fetch-data' && (job.symbols ?? []).length === 0) report(['symbols'], 'fetch-data needs at least one symbol');
  if (job.runFor !== undefined && (job.task !== undefined || job.cron === undefined))
    report(['runFor'], 'applies only to cron-fired strategy jobs (a window run ends at its stop)');
  for (const key of ['lookback', 'dataDir'] as const)
    if (job[key] !== undefined && job.task !== 'fetch-data') report([key], 'applies only to the fetch-data task');
  const market = resolveMarket(job, report);
  if (failed || market === undefined) return undefined;

  const trigger: JobTrigger =
    job.cron !== undefined
      ? { kind: 'cron', cron: parseCron(job.cron) }
      : { kind: 'window', start: parseCron(job.start!), stop: parseCron(job.stop!) };
  const target: JobTarget =
    job.strategy !== undefined
      ? { kind: 'strategy', path: path.resolve(baseDir, job.strategy), period: job.period, runForMs: job.runFor ?? DEFAULT_RUN_FOR_MS }
      : {
          kind: 'task',
          task: job.task!,
          fetch: {
            period: job.period ?? DEFAULT_FETCH.period,
            lookbackMs: job.lookback ?? DEFAULT_FETCH.lookbackMs,
            dataDir: path.resolve(baseDir, job.dataDir ?? DEFAULT_FETCH.dataDir),
          },
        };
  return {
    name: job.name,
    target,
    symbols: job.symbols ?? [],
    params: job.params ?? {},
    market,
    timezone: job.timezone ?? config?.timezone ?? timeZoneOf(market),
    trigger,
    days: job.days ?? 'trading',
    flattenAtStop: job.flattenAtStop ?? false,
    restart: restartPolicy(job, config),
  };
}

function resolveMarket(job: RawJob, report: Report): Market | undefined {
  if (job.market !== undefined) return job.market;
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

function paperSettings(paper: RawConfig['paper'], baseDir: string): PaperSettings {
  const data = paper?.data ?? DEFAULT_PAPER.data;
  return {
    data: (typeof data === 'string' ? [data] : data).map((entry) => path.resolve(baseDir, entry)),
    from: paper?.from,
    speed: paper?.speed ?? DEFAULT_PAPER.speed,
    cash: String(paper?.cash ?? DEFAULT_PAPER.cash),
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
