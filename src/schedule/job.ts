// What the scheduler runs: a job resolved from the config, with every default filled in.
import type { Period } from '../domain/period.js';
import type { Market, SecuritySymbol } from '../domain/symbol.js';
import type { CronExpression } from './cron.js';

/** Built-in tasks a job may run instead of a strategy. */
export const TASKS = ['fetch-data'] as const;
export type TaskName = (typeof TASKS)[number];

export interface BackoffSettings {
  readonly initialMs: number;
  readonly maxMs: number;
  /** Spread restarts randomly over 50–100 % of the delay (off in tests, so instants are exact). */
  readonly jitter: boolean;
}

export interface RestartPolicy {
  /** Crashes tolerated within `windowMs`; one more halts the job for the rest of its market day. */
  readonly maxRestarts: number;
  readonly windowMs: number;
  readonly backoff: BackoffSettings;
}

/** What the fetch-data task downloads: bars of `period`, from `lookbackMs` ago (or the files' last bar) to today. */
export interface FetchSettings {
  readonly period: Period;
  readonly lookbackMs: number;
  /** Folder of the SYMBOL.csv files (absolute). */
  readonly dataDir: string;
}

export type JobTarget =
  | {
      readonly kind: 'strategy';
      readonly path: string;
      /** Bar period override (the strategy's own when undefined). */
      readonly period: Period | undefined;
      /** A cron-fired run ends at the latest this long after it started (a window run ends at its stop). */
      readonly runForMs: number;
    }
  | { readonly kind: 'task'; readonly task: TaskName; readonly fetch: FetchSettings };

/** Which days a job may fire on: its market's trading days (the default), or every day. */
export type JobDays = 'trading' | 'all';

/** A window runs a strategy from each start fire to the next stop fire; a cron job runs once per fire. */
export type JobTrigger =
  | { readonly kind: 'window'; readonly start: CronExpression; readonly stop: CronExpression }
  | { readonly kind: 'cron'; readonly cron: CronExpression };

export interface ScheduleJob {
  readonly name: string;
  readonly target: JobTarget;
  readonly symbols: readonly SecuritySymbol[];
  readonly params: Readonly<Record<string, number | string | boolean>>;
  /** Whose trading days gate the job (given, or inferred from the symbols). */
  readonly market: Market;
  /** Zone the cron fields are read in. */
  readonly timezone: string;
  readonly trigger: JobTrigger;
  readonly days: JobDays;
  readonly flattenAtStop: boolean;
  readonly restart: RestartPolicy;
}
