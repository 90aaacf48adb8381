// The scheduler's status snapshot (jobs, next fires, state, last errors, link, kill switch, positions and PnL
// of the day), in JSON-ready form: what `--health-port` serves and what the status file holds.
import path from 'node:path';
import type { Clock } from '../domain/clock.js';
import type { NextFire } from './events.js';
import type { ScheduleJob } from './job.js';
import { formatLocal } from './local-time.js';
import type { NotifierStats } from './notifier.js';
import type { LinkState } from './outage-guard.js';
import type { JobStatus, KillSwitch } from './supervisor.js';
import type { JobSchedule } from './scheduler.js';

/** Decimal quantities and money as strings, as the broker reports them. */
export interface PositionLine {
  readonly symbol: string;
  readonly quantity: string;
  readonly averageCost?: string;
  readonly marketValue?: string;
  readonly unrealizedPnl?: string;
  readonly currency?: string;
}

/** The account's PnL of the (market) day in one currency: net assets now against the day's first figure. */
export interface DayPnl {
  readonly currency: string;
  readonly netAssets: string;
  readonly dayStart: string;
  readonly change: string;
}

export interface PortfolioSnapshot {
  /** ISO time the figures were read from the broker. */
  readonly asOf: string;
  readonly positions: readonly PositionLine[];
  readonly pnlToday: readonly DayPnl[];
}

/** Supplied by the account watch (positions and balances from the broker). */
export interface PortfolioProvider {
  snapshot(): Promise<PortfolioSnapshot>;
}

interface Instant {
  /** ISO UTC */
  readonly at: string;
  /** ISO local time in the job's zone */
  readonly local: string;
}

export interface JobStatusLine {
  readonly name: string;
  readonly kind: 'window' | 'cron';
  /** The strategy file's name or the task's. */
  readonly target: string;
  readonly market: string;
  readonly timezone: string;
  readonly state: JobStatus['state'];
  readonly haltReason: JobStatus['haltReason'];
  readonly haltedUntil: string | undefined;
  readonly windowOpen: boolean;
  readonly next: (Instant & { readonly trigger: NextFire['trigger'] }) | undefined;
  readonly lastFired: (Instant & { readonly kind: string }) | undefined;
  readonly lastSkipped: (Instant & { readonly reason: string; readonly detail: string }) | undefined;
  readonly recentCrashes: number;
  readonly runs: number;
  readonly restartAt: string | undefined;
  readonly lastError: { readonly at: string; readonly message: string } | undefined;
  readonly paused: boolean;
  /** How the last run ended. */
  readonly lastResult: { readonly at: string; readonly outcome: string; readonly message: string | undefined } | undefined;
}

export interface StatusSnapshot {
  readonly version: 1;
  readonly generatedAt: string;
  /** 'stopped' is written last by a scheduler that shut down gracefully. */
  readonly state: 'running' | 'stopped';
  readonly startedAt: string | undefined;
  readonly pid: number;
  readonly mode: 'paper' | 'live';
  readonly configFile: string;
  /** False while the kill switch is on, new orders are halted by an outage, or a job is halted. */
  readonly healthy: boolean;
  readonly link: LinkState;
  readonly killSwitch: { readonly reason: string; readonly at: string } | undefined;
  readonly jobs: readonly JobStatusLine[];
  readonly notifications: NotifierStats | undefined;
  /** Live mode with a known expiry: when the access token expires (it is refreshed ahead of that). */
  readonly tokenExpiresAt: string | undefined;
  readonly portfolio: PortfolioSnapshot | undefined;
  /** Why the portfolio is missing, when the provider failed. */
  readonly portfolioError: string | undefined;
}

export interface StatusSources {
  readonly clock: Clock;
  readonly state?: 'running' | 'stopped';
  readonly startedAt?: number;
  readonly mode: 'paper' | 'live';
  readonly configFile: string;
  readonly jobs: readonly ScheduleJob[];
  readonly scheduler: { schedule(job: string): JobSchedule | undefined };
  readonly supervisor: { status(): JobStatus[]; readonly killSwitch: KillSwitch | undefined };
  readonly link?: { readonly state: LinkState };
  readonly notifier?: { stats(): NotifierStats };
  readonly token?: { readonly expiresAt: number };
  readonly portfolio?: PortfolioProvider;
}

export async function collectStatus(sources: StatusSources): Promise<StatusSnapshot> {
  const supervised = new Map(sources.supervisor.status().map((status) => [status.name, status]));
  const jobs = sources.jobs.map((job) => jobLine(job, sources.scheduler.schedule(job.name), supervised.get(job.name)));
  let portfolio: PortfolioSnapshot | undefined;
  let portfolioError: string | undefined;
  try {
    portfolio = await sources.portfolio?.snapshot();
  } catch (error) {
    portfolioError = (error as Error).message;
  }
  const killSwitch = sources.supervisor.killSwitch;
  const link = sources.link?.state ?? 'up';
  return {
    version: 1,
    generatedAt: iso(sources.clock.now())!,
    state: sources.state ?? 'running',
    startedAt: iso(sources.startedAt),
    pid: process.pid,
    mode: sources.mode,
    configFile: sources.configFile,
    healthy: killSwitch === undefined && (link === 'up' || link === 'down') && jobs.every((job) => job.state !== 'halted'),
    link,
    killSwitch: killSwitch === undefined ? undefined : { reason: killSwitch.reason, at: iso(killSwitch.at)! },
    jobs,
    notifications: sources.notifier?.stats(),
    tokenExpiresAt: iso(sources.token?.expiresAt),
    portfolio,
    portfolioError,
  };
}

function jobLine(job: ScheduleJob, schedule: JobSchedule | undefined, status: JobStatus | undefined): JobStatusLine {
  const instant = (at: number): Instant => ({ at: iso(at)!, local: formatLocal(at, job.timezone) });
  const fired = schedule?.lastFired;
  const skipped = schedule?.lastSkipped;
  return {
    name: job.name,
    kind: job.trigger.kind,
    target: job.target.kind === 'strategy' ? path.basename(job.target.path) : job.target.task,
    market: job.market,
    timezone: job.timezone,
    state: status?.state ?? 'idle',
    haltReason: status?.haltReason,
    haltedUntil: iso(status?.haltedUntil),
    windowOpen: schedule?.window.open ?? false,
    next: schedule?.next === undefined ? undefined : { ...instant(schedule.next.at), trigger: schedule.next.trigger },
    lastFired: fired === undefined ? undefined : { ...instant(fired.at), kind: fired.kind },
    lastSkipped: skipped === undefined ? undefined : { ...instant(skipped.at), reason: skipped.reason, detail: skipped.detail },
    recentCrashes: status?.recentCrashes ?? 0,
    runs: status?.runs ?? 0,
    restartAt: iso(status?.restartAt),
    lastError: status?.lastError === undefined ? undefined : { at: iso(status.lastError.at)!, message: status.lastError.message },
    paused: status?.paused ?? false,
    lastResult:
      status?.lastResult === undefined
        ? undefined
        : { at: iso(status.lastResult.at)!, outcome: status.lastResult.outcome, message: status.lastResult.message },
  };
}

function iso(ms: number | undefined): string | undefined {
  return ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();
}
