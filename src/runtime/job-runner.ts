// The scheduler's JobRunner over the strategy runtime: each run of a strategy job is one session (paper or
// live, as the venue says) of the job's strategy, named after the job, against the schedule's one journal.
// Every job of a schedule trades one account: in paper mode one simulator that all sessions share, so the
// journal, the positions and the orders agree across jobs. Each job's client order ids carry its name.
import { systemClock } from '../clock/system-clock.js';
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/config.js';
import type { ScheduleJob } from '../schedule/job.js';
import type { JobRun, JobRunner, RunContext } from '../schedule/job-runner.js';
import type { JournalOrder } from '../store/journal.js';
import { openJournal } from '../store/sqlite-journal.js';
import { loadStrategy } from '../strategy/loader.js';
import type { PreparedStrategy } from '../strategy/prepare.js';
import type { IntentGate } from './intent-gate.js';
import { SessionJobRun } from './job-run.js';
import { startSession, type Session, type SessionOptions, type SessionVenue } from './session.js';

export interface SessionJobRunnerOptions {
  /** The venue of each new session, asked at every start (a refreshed access token reaches the next runs). */
  readonly venue: () => SessionVenue;
  readonly journalFile: string;
  readonly risk?: RiskLimits;
  readonly logger: Logger;
  /** Wall clock (the system clock by default). */
  readonly clock?: Clock;
  /** Asked before every new order of every run (the outage guard); cancels always pass. */
  readonly gate?: IntentGate;
  /** Session settings for every run (tests open up the HTTP pacing, turn status lines off…). */
  readonly session?: Pick<SessionOptions, 'runtime' | 'http' | 'statusEveryMs'>;
  /** Told about each session once it runs; the returned function is called when it is over. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook may return a clean-up function or nothing
  readonly onSession?: (job: ScheduleJob | undefined, session: Session) => (() => void) | void;
  /** How often a cron run checks whether it is done (besides every runtime event). Default 1 s. */
  readonly pollMs?: number;
}

export class SessionJobRunner implements JobRunner {
  private readonly clock: Clock;
  private readonly sessions = new Set<Session>();

  constructor(private readonly options: SessionJobRunnerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  start(job: ScheduleJob, context: RunContext): JobRun {
    if (job.target.kind !== 'strategy') throw new Error(`job ${job.name} runs the task ${job.target.task}, not a strategy`);
    const logger = this.options.logger.child({ job: job.name });
    return new SessionJobRun({
      job,
      context,
      clock: this.clock,
      logger,
      load: () => loadJobStrategy(job),
      open: (strategy, gate, signal) => this.open([strategy], logger, job.name, gate, signal),
      cancelJobOrders: (session) => this.cancelJobOrders(job, session, logger),
      gate: this.options.gate,
      pollMs: this.options.pollMs ?? 1000,
      attach: (session) => this.attach(job, session),
    });
  }

  /** One reconciliation pass in every running session (after an outage). */
  async reconcileAll(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.runtime.reconcileNow()));
  }

  /**
   * The journal reconciled with the broker without running a strategy: orders left open by a process that
   * died are looked up by client order id and their fills booked. `cancelOpenOrders` then cancels every
   * order of the journal that is still open (the kill switch), never anyone else's. Resolves to how many
   * cancels were sent.
   */
  async reconcileJournal(options: { readonly cancelOpenOrders?: boolean } = {}): Promise<number> {
    return this.withAccountSession(async (session) => {
      if (options.cancelOpenOrders !== true) return 0;
      const cancelled = await session.runtime.cancelOpenOrders();
      // Asked once more, so the journal keeps where the cancelled orders ended.
      if (cancelled > 0)
        await session.runtime
          .reconcileNow()
          .catch((error: unknown) => this.options.logger.warn({ error: String(error) }, 'reconciliation after cancelling failed'));
      return cancelled;
    });
  }

  /**
   * Opens a session with no strategy on the schedule's account and journal (reconciled, so its book holds
   * the account's positions and the journal's open orders), does `work` in it (a person's cancel or flatten),
   * and stops it.
   */
  async withAccountSession<T>(work: (session: Session) => Promise<T>): Promise<T> {
    const session = await this.open([], this.options.logger.child({ component: 'reconcile' }), undefined);
    const detach = this.attach(undefined, session);
    try {
      return await work(session);
    } finally {
      await session.stop().catch(() => undefined);
      detach();
    }
  }

  private open(
    strategies: readonly PreparedStrategy[],
    logger: Logger,
    prefix: string | undefined,
    gate?: IntentGate,
    signal?: AbortSignal,
  ): Promise<Session> {
    const { session } = this.options;
    return startSession({
      venue: this.options.venue(),
      strategies,
      journalFile: this.options.journalFile,
      logger,
      clock: this.clock,
      ...(this.options.risk === undefined ? {} : { risk: this.options.risk }),
      ...(gate === undefined ? {} : { gate }),
      ...(signal === undefined ? {} : { signal }),
      ...session,
      runtime: { ...session?.runtime, ...(prefix === undefined ? {} : { clientIdPrefix: prefix }) },
    });
  }

  private attach(job: ScheduleJob | undefined, session: Session): () => void {
    this.sessions.add(session);
    const detach = this.options.onSession?.(job, session);
    return () => {
      this.sessions.delete(session);
      detach?.();
    };
  }

  /** Keeps an event in the schedule's journal (a person's control action), through a connection of its own. */
  recordEvent(type: string, detail: Readonly<Record<string, unknown>>): void {
    const journal = openJournal(this.options.journalFile);
    try {
      journal.recordEvent(this.clock.now(), type, detail);
    } finally {
      journal.close();
    }
  }

  // The job's open orders as the journal knows them (this run's and earlier runs'), cancelled at the broker.
  private async cancelJobOrders(job: ScheduleJob, session: Session, logger: Logger): Promise<number> {
    const open = openOrdersOf(this.options.journalFile, job.name);
    let cancelled = 0;
    for (const order of open) {
      try {
        await session.link.broker.cancelOrder(order.orderId!);
        cancelled += 1;
      } catch (error) {
        logger.warn({ orderId: order.orderId, error: error instanceof Error ? error.message : String(error) }, 'cancel failed');
      }
    }
    return cancelled;
  }
}

/** A strategy job's strategy with the job's symbols, period and params, named after the job. */
export async function loadJobStrategy(job: ScheduleJob): Promise<PreparedStrategy> {
  const target = job.target;
  if (target.kind !== 'strategy') throw new Error(`job ${job.name} runs the task ${target.task}, not a strategy`);
  const strategy = await loadStrategy(target.path, {
    params: job.params,
    ...(job.symbols.length === 0 ? {} : { symbols: job.symbols }),
    ...(target.period === undefined ? {} : { period: target.period }),
  });
  return { ...strategy, name: job.name };
}

// Read through a connection of its own: the sessions keep theirs.
function openOrdersOf(journalFile: string, strategy: string): JournalOrder[] {
  const journal = openJournal(journalFile);
  try {
    return journal.openOrders().filter((order) => order.strategy === strategy && order.orderId !== undefined);
  } finally {
    journal.close();
  }
}
