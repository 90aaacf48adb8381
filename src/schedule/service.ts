// `trader schedule` as one object, over ports: the market calendar, the scheduler and the supervisor running
// jobs through a JobRunner, the kill switch (risk halts seen in any run, or the account watch) halting every
// job for the day and cancelling the journal's open orders, the outage guard fed by the link monitor, the
// token refresher, notifications, and the status (file and health endpoint). Restart safety: the journal
// is reconciled with the broker before any job starts, then windows open now are resumed.
import path from 'node:path';
import type { Subscription } from 'rxjs';
import { sleep } from '../clock/sleep.js';
import type { Clock } from '../domain/clock.js';
import { TraderError } from '../domain/errors.js';
import type { Logger } from '../log/logger.js';
import type { DenialCode } from '../risk/decision.js';
import type { RiskLimits } from '../risk/config.js';
import { AccountWatch, type AccountSource } from './account-watch.js';
import { MarketCalendar, type TradingDaysSource } from './calendar.js';
import { CalendarFileStore } from './calendar-store.js';
import type { ScheduleConfig } from './config.js';
import { startHealthServer, type HealthServer } from './health-server.js';
import type { JobRun, JobRunner } from './job-runner.js';
import type { ScheduleJob } from './job.js';
import { LinkMonitor } from './link-monitor.js';
import { noNotify, type Notify } from './notification.js';
import type { ManagedNotifier } from './queued-notifier.js';
import { OutageGuard } from './outage-guard.js';
import { Scheduler } from './scheduler.js';
import { readStatusFile, statusFilePath, StatusPublisher, pidAlive } from './status-file.js';
import { livenessOf } from './status-format.js';
import { collectStatus, type StatusSnapshot } from './status.js';
import { Supervisor, type ControlOutcome } from './supervisor.js';
import { TokenRefresher } from './token-refresher.js';

/** Risk denials that mean the account's kill switch tripped inside a run. */
const KILL_SWITCH_CODES: readonly DenialCode[] = ['DAILY_LOSS_HALT', 'DRAWDOWN_HALT'];

/** What the schedule asks of the trading side besides running jobs. */
export interface JournalPort {
  /**
   * Journal and broker reconciled; with cancelOpenOrders, every open order of the journal cancelled after.
   * Resolves to how many cancels were sent.
   */
  reconcileJournal(options?: { readonly cancelOpenOrders?: boolean }): Promise<number>;
  /** One reconciliation pass in every running session. */
  reconcileAll(): Promise<void>;
}

export interface ScheduleServiceOptions {
  readonly config: ScheduleConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly runner: JobRunner;
  readonly journal: JournalPort;
  /** Trading days (the quote connection's cmd 9); weekdays, with a warning, without one. */
  readonly calendarSource?: TradingDaysSource;
  /** Balances and positions for the kill switch and the status; neither without one. */
  readonly account?: AccountSource;
  readonly notifier?: ManagedNotifier;
  /** Live mode with a known token expiry: the token is refreshed before it expires. */
  readonly token?: { readonly expiresAt: number; readonly refresh: () => Promise<number> };
  /** Overrides the config's healthPort (0 picks a free port). */
  readonly healthPort?: number;
  /** False when something else serves /health and /status (the dashboard, on the health port). Default true. */
  readonly serveHealth?: boolean;
  /** [0, 1) source for backoff jitter. */
  readonly random?: () => number;
  /** How often the status file is rewritten without changes (readers judge liveness by its age). Default 15 s. */
  readonly statusEveryMs?: number;
}

export class ScheduleService {
  readonly guard: OutageGuard;
  readonly links: LinkMonitor;
  readonly scheduler: Scheduler;
  readonly supervisor: Supervisor;
  readonly account: AccountWatch | undefined;
  private readonly notifier: Notify;
  private readonly publisher: StatusPublisher;
  private readonly subscriptions: Subscription[] = [];
  private refresher: TokenRefresher | undefined;
  private health: HealthServer | undefined;
  private startedAt: number | undefined;
  private state: 'running' | 'stopped' = 'running';
  private halting: Promise<number> | undefined;
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: ScheduleServiceOptions) {
    const { config, clock, logger } = options;
    this.notifier = options.notifier ?? noNotify;
    const calendar = new MarketCalendar({
      clock,
      ...(options.calendarSource === undefined ? {} : { source: options.calendarSource }),
      store: new CalendarFileStore(config.calendar.cacheFile, logger),
      ttlMs: config.calendar.ttlMs,
      logger,
    });
    this.guard = new OutageGuard({ clock, limitMs: config.outageLimitMs, notifier: this.notifier, logger });
    this.links = new LinkMonitor({ guard: this.guard, clock, reconcile: () => options.journal.reconcileAll(), logger });
    this.scheduler = new Scheduler({ clock, calendar, jobs: config.jobs, logger });
    this.supervisor = new Supervisor({
      clock,
      runner: { start: (job, context) => this.watchRun(job, options.runner.start(job, context)) },
      jobs: config.jobs,
      notifier: this.notifier,
      logger,
      stopTimeoutMs: config.stopTimeoutMs,
      ...(options.random === undefined ? {} : { random: options.random }),
    });
    const market = config.jobs[0]!.market;
    this.account =
      options.account === undefined
        ? undefined
        : new AccountWatch({
            clock,
            source: options.account,
            limits: config.risk as RiskLimits,
            market,
            intervalMs: config.accountCheckMs,
            file: path.join(config.stateDir, 'account-day.json'),
            onTrip: (reason) => void this.killSwitch(`account: ${reason}`),
            logger,
          });
    this.publisher = new StatusPublisher({
      clock,
      file: statusFilePath(config.stateDir),
      collect: () => this.status(),
      logger,
      ...(options.statusEveryMs === undefined ? {} : { intervalMs: options.statusEveryMs }),
    });
  }

  /** Why new orders may not go out now (the outage guard), or undefined. Cancels are never held back. */
  ordersBlocked(): string | undefined {
    return this.guard.ordersAllowed
      ? undefined
      : `link outage: new orders halted until the link and a reconciliation are back (link ${this.guard.state})`;
  }

  async start(): Promise<void> {
    const { config, clock, logger } = this.options;
    await this.refuseSecondScheduler();
    this.startedAt = clock.now();
    this.publisher.start();
    if (this.options.calendarSource === undefined) logger.warn('no trading-days source: every weekday counts as a trading day');
    logger.info({ journal: config.journal }, 'reconciling the journal with the broker before any job starts');
    await this.options.journal.reconcileJournal();
    await this.account?.start();
    this.subscriptions.push(
      this.supervisor.attach(this.scheduler.events),
      this.supervisor.changes.subscribe(() => this.publisher.publish()),
      this.scheduler.events.subscribe(() => this.publisher.publish()),
      this.guard.states.subscribe(() => this.publisher.publish()),
    );
    const port = this.options.healthPort ?? config.healthPort;
    if (port !== undefined && this.options.serveHealth !== false)
      this.health = await startHealthServer({ port, status: () => this.status(), logger });
    await this.scheduler.start();
    // Now that the jobs are armed, the status can name their next fire times (`trader status` reads it).
    this.publisher.publish();
    if (this.options.token !== undefined) {
      this.refresher = new TokenRefresher({
        clock,
        ...this.options.token,
        leadMs: config.tokenRefreshLeadMs,
        notifier: this.notifier,
        logger,
      });
      this.refresher.start();
    }
    logger.info(
      { jobs: config.jobs.map((job) => job.name), mode: config.mode, health: this.health?.url },
      `schedule running: ${config.jobs.length} job(s), ${config.mode} mode`,
    );
  }

  /** The health endpoint's address, when it listens. */
  get healthUrl(): string | undefined {
    return this.health?.url;
  }

  /**
   * The kill switch: every job halted for the rest of its market day (their runs stopped, their open orders
   * cancelled), then every open order of the journal cancelled too (runs that ended earlier may have left some).
   * Resolves to how many open orders were cancelled (0 when it was tripped already).
   */
  killSwitch(reason: string): Promise<number> {
    if (this.supervisor.killSwitch !== undefined || this.halting !== undefined) return this.halting ?? Promise.resolve(0);
    this.halting = (async () => {
      const byRuns = await this.supervisor.haltForDay(reason);
      const left = await this.options.journal.reconcileJournal({ cancelOpenOrders: true }).catch((error: unknown) => {
        this.options.logger.error(
          { error: error instanceof Error ? error.message : String(error) },
          'kill switch: cancelling the open orders failed',
        );
        return 0;
      });
      return byRuns + left;
    })().finally(() => (this.halting = undefined));
    return this.halting;
  }

  /** Lifts the kill switch (a person decided): halted jobs may trade again, open windows run again. */
  async resetKillSwitch(): Promise<ControlOutcome> {
    await this.halting;
    const outcome = this.supervisor.resetKillSwitch();
    this.publisher.publish();
    return outcome;
  }

  status(): Promise<StatusSnapshot> {
    const { config, clock } = this.options;
    return collectStatus({
      clock,
      state: this.state,
      ...(this.startedAt === undefined ? {} : { startedAt: this.startedAt }),
      mode: config.mode,
      configFile: config.file,
      jobs: config.jobs,
      scheduler: this.scheduler,
      supervisor: this.supervisor,
      link: this.guard,
      ...(this.options.notifier === undefined ? {} : { notifier: this.options.notifier }),
      ...(this.refresher === undefined ? {} : { token: this.refresher }),
      ...(this.account === undefined ? {} : { portfolio: this.account }),
    });
  }

  /** Graceful stop: no new fires, every run stopped (journals flushed), a last status, notifications drained. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const { clock, logger } = this.options;
      this.scheduler.stop();
      await this.halting;
      await this.supervisor.shutdown();
      for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
      this.refresher?.stop();
      await this.account?.stop();
      this.links.close();
      this.guard.close();
      this.state = 'stopped';
      // A start refused before it began (another scheduler owns the state dir) must not touch its status file.
      if (this.startedAt !== undefined) await this.publisher.stop();
      await this.health?.close();
      if (this.options.notifier !== undefined) {
        const grace = new AbortController();
        await Promise.race([this.options.notifier.drain(), sleep(clock, 5000, grace.signal).catch(() => undefined)]);
        grace.abort();
        this.options.notifier.close();
      }
      logger.info('schedule stopped');
    })();
    return this.stopping;
  }

  // Every run's events: a risk halt trips the kill switch; a fill makes the account be read again soon.
  private watchRun(job: ScheduleJob, run: JobRun): JobRun {
    run.events?.subscribe((event) => {
      if (event.kind === 'fill') this.account?.refreshSoon();
      // After the supervisor has reported the denial itself: the halt follows it.
      else if (event.kind === 'denial' && (KILL_SWITCH_CODES as readonly string[]).includes(event.code))
        queueMicrotask(() => void this.killSwitch(`${job.name}: ${event.message}`));
    });
    return run;
  }

  private async refuseSecondScheduler(): Promise<void> {
    const { config, clock } = this.options;
    const snapshot = await readStatusFile(statusFilePath(config.stateDir)).catch(() => undefined);
    if (snapshot === undefined || snapshot.pid === process.pid) return;
    if (livenessOf(snapshot, clock.now(), pidAlive).running) {
      throw new TraderError(
        'SCHEDULER_RUNNING',
        `another scheduler (pid ${snapshot.pid}) is running with the state dir ${config.stateDir}: stop it first, or use another --state`,
      );
    }
  }
}
