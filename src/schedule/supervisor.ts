// Runs jobs as the scheduler says, through the JobRunner port: restarts crashed runs with backoff, halts a job
// that keeps crashing, and holds the kill switch that halts every job for the rest of its market day. People
// (dashboard, chat) pause and resume jobs, start a run now, and reset the kill switch through it too.
import { Subject, type Observable, type Subscription } from 'rxjs';
import { sleep } from '../clock/sleep.js';
import type { Clock, TimerHandle } from '../domain/clock.js';
import { timeZoneOf } from '../domain/market-hours.js';
import { localDate, startOfLocalDay } from '../domain/time-zone.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { backoffDelay } from './backoff.js';
import { formatDuration } from './duration.js';
import type { ScheduleEvent } from './events.js';
import type { ScheduleJob } from './job.js';
import type { JobRun, JobRunEvent, JobRunner, RunReason, StopOptions } from './job-runner.js';
import { noNotify, type Notify } from './notification.js';
import { timerAt } from './timer.js';

export type JobRunState = 'idle' | 'running' | 'stopping' | 'restarting' | 'halted' | 'paused';
export type HaltReason = 'crashes' | 'kill-switch';

/** How a job's last run ended. */
export interface RunResult {
  readonly at: number;
  readonly outcome: 'completed' | 'stopped' | 'crashed';
  readonly message: string | undefined;
}

/** The answer to a person's request (pause, resume, run now, reset): done or refused, and why, in one line. */
export interface ControlOutcome {
  readonly done: boolean;
  readonly message: string;
  /** How many open orders the action cancelled, when it knows (a kill switch, a pause that stopped a run). */
  readonly cancelled?: number;
}

export interface JobStatus {
  readonly name: string;
  readonly state: JobRunState;
  readonly haltReason: HaltReason | undefined;
  readonly haltedUntil: number | undefined;
  /** Crashes inside the restart policy's window. */
  readonly recentCrashes: number;
  readonly restartAt: number | undefined;
  readonly runStartedAt: number | undefined;
  readonly runs: number;
  readonly lastError: { readonly at: number; readonly message: string } | undefined;
  /** Paused by a person: no run starts until resumed (the state says 'halted' first while both hold). */
  readonly paused: boolean;
  readonly lastResult: RunResult | undefined;
}

export interface KillSwitch {
  readonly reason: string;
  readonly at: number;
}

export interface SupervisorOptions {
  readonly clock: Clock;
  readonly runner: JobRunner;
  readonly jobs: readonly ScheduleJob[];
  readonly notifier?: Notify;
  readonly logger?: Logger;
  /** How long a graceful stop may take before the run's signal is aborted. */
  readonly stopTimeoutMs?: number;
  /** [0, 1) source for backoff jitter. */
  readonly random?: () => number;
}

interface ActiveRun {
  readonly handle: JobRun;
  readonly abort: AbortController;
  readonly startedAt: number;
  /** Resolves to how many open orders the stop cancelled, when known. */
  stopping: Promise<number | undefined> | undefined;
  readonly subscription: Subscription | undefined;
}

interface Slot {
  readonly job: ScheduleJob;
  run: ActiveRun | undefined;
  window: { readonly closesAt: number } | undefined;
  restart: { readonly at: number; readonly timer: TimerHandle } | undefined;
  halt: { readonly reason: HaltReason; readonly until: number; readonly timer: TimerHandle } | undefined;
  crashes: number[];
  runs: number;
  lastError: { readonly at: number; readonly message: string } | undefined;
  paused: boolean;
  lastResult: RunResult | undefined;
}

export class Supervisor {
  private readonly slots: Map<string, Slot>;
  private readonly changeSubject = new Subject<JobStatus>();
  private readonly notifier: Notify;
  private readonly logger: Logger;
  private killSwitchState: KillSwitch | undefined;

  /** Every change of a job's status. */
  readonly changes: Observable<JobStatus> = this.changeSubject.asObservable();

  constructor(private readonly options: SupervisorOptions) {
    this.notifier = options.notifier ?? noNotify;
    this.logger = options.logger ?? silentLogger;
    this.slots = new Map(
      options.jobs.map((job) => [
        job.name,
        {
          job,
          run: undefined,
          window: undefined,
          restart: undefined,
          halt: undefined,
          crashes: [],
          runs: 0,
          lastError: undefined,
          paused: false,
          lastResult: undefined,
        },
      ]),
    );
  }

  /** Follows a scheduler's events until the returned subscription is closed. */
  attach(events: Observable<ScheduleEvent>): Subscription {
    return events.subscribe((event) => this.handle(event));
  }

  handle(event: ScheduleEvent): void {
    const slot = this.slots.get(event.job);
    if (slot === undefined) return;
    switch (event.kind) {
      case 'window-opened':
        slot.window = { closesAt: event.closesAt };
        this.begin(slot, event.resumed ? 'resume' : 'window');
        break;
      case 'window-closed':
        slot.window = undefined;
        this.cancelRestart(slot);
        if (slot.run !== undefined)
          void this.stopRun(slot, { reason: 'window-closed', flatten: slot.job.flattenAtStop, cancelOpenOrders: true });
        this.changed(slot);
        break;
      case 'fired':
        this.begin(slot, 'fire');
        break;
      case 'skipped':
        break;
    }
  }

  /**
   * The kill switch (daily loss, drawdown…): stops every run, cancelling its open orders, and keeps every job
   * halted until the end of its market's local day. Resolves to how many open orders the runs said they cancelled.
   */
  async haltForDay(reason: string): Promise<number> {
    const now = this.options.clock.now();
    this.killSwitchState = { reason, at: now };
    this.logger.error({ reason }, 'kill switch: trading halted for the rest of the day');
    this.notifier.notify({
      kind: 'halt',
      message: `kill switch: ${reason}; all jobs halted for the rest of the market day`,
      details: { reason, jobs: [...this.slots.keys()] },
    });
    const stops: Promise<number | undefined>[] = [];
    for (const slot of this.slots.values()) {
      this.haltSlot(slot, 'kill-switch');
      if (slot.run !== undefined) stops.push(this.stopRun(slot, { reason: 'kill-switch', flatten: false, cancelOpenOrders: true }));
    }
    return (await Promise.all(stops)).reduce((sum: number, cancelled) => sum + (cancelled ?? 0), 0);
  }

  /** Lifts the kill switch's halts now (a person decided): windows open now start their runs again. */
  resetKillSwitch(): ControlOutcome {
    const halted = [...this.slots.values()].filter((slot) => slot.halt?.reason === 'kill-switch');
    if (halted.length === 0) return { done: false, message: 'the kill switch is not tripped' };
    this.killSwitchState = undefined;
    for (const slot of halted) {
      slot.halt?.timer.cancel();
      slot.halt = undefined;
      this.startIfWanted(slot);
    }
    this.logger.warn({ jobs: halted.map((slot) => slot.job.name) }, 'kill switch reset: jobs may trade again');
    this.notifier.notify({ kind: 'recovered', message: 'kill switch reset: jobs may trade again', details: { reset: true } });
    return { done: true, message: `kill switch reset: ${halted.map((slot) => slot.job.name).join(', ')} may trade again` };
  }

  /** Stops the job's run (cancelling its open orders, keeping its positions) and starts none until resumed. */
  async pause(name: string): Promise<ControlOutcome> {
    const slot = this.slots.get(name);
    if (slot === undefined) return this.unknown(name);
    if (slot.paused) return { done: false, message: `job ${name} is already paused` };
    slot.paused = true;
    this.cancelRestart(slot);
    this.logger.warn({ job: name }, `job ${name} paused`);
    this.changed(slot);
    if (slot.run !== undefined) {
      const cancelled = await this.stopRun(slot, { reason: 'paused', flatten: false, cancelOpenOrders: true });
      return cancelled === undefined
        ? { done: true, message: `job ${name} paused: its run stopped and its open orders were cancelled` }
        : { done: true, message: `job ${name} paused: its run stopped and ${cancelled} open order(s) were cancelled`, cancelled };
    }
    return { done: true, message: `job ${name} paused` };
  }

  /** Lets the job run again; inside an open window its run starts now. */
  resume(name: string): ControlOutcome {
    const slot = this.slots.get(name);
    if (slot === undefined) return this.unknown(name);
    if (!slot.paused) return { done: false, message: `job ${name} is not paused` };
    slot.paused = false;
    this.logger.info({ job: name }, `job ${name} resumed`);
    const started = this.startIfWanted(slot);
    return { done: true, message: `job ${name} resumed${started ? ': its window is open, so it runs now' : ''}` };
  }

  /** Starts a run of the job now: a cron job at once, a start/stop job only while its window is open. */
  runNow(name: string): ControlOutcome {
    const slot = this.slots.get(name);
    if (slot === undefined) return this.unknown(name);
    if (slot.halt !== undefined)
      return { done: false, message: `job ${name} is halted (${slot.halt.reason}) until ${new Date(slot.halt.until).toISOString()}` };
    if (slot.paused) return { done: false, message: `job ${name} is paused: resume it first` };
    if (slot.run !== undefined) return { done: false, message: `job ${name} is already running` };
    if (slot.job.trigger.kind === 'window' && slot.window === undefined)
      return { done: false, message: `job ${name} runs from its start to its stop time, and its window is closed now` };
    this.cancelRestart(slot);
    this.startRun(slot, 'manual', 0);
    return { done: true, message: `job ${name} started` };
  }

  /** The kill switch while any job is still halted by it. */
  get killSwitch(): KillSwitch | undefined {
    const active = [...this.slots.values()].some((slot) => slot.halt?.reason === 'kill-switch');
    return active ? this.killSwitchState : undefined;
  }

  status(): JobStatus[] {
    return [...this.slots.values()].map((slot) => this.statusOf(slot));
  }

  /** Graceful shutdown: stops every run (orders stay as they are) and waits for them. */
  async shutdown(): Promise<void> {
    const stops: Promise<number | undefined>[] = [];
    for (const slot of this.slots.values()) {
      this.cancelRestart(slot);
      slot.halt?.timer.cancel();
      if (slot.run !== undefined) stops.push(this.stopRun(slot, { reason: 'shutdown', flatten: false, cancelOpenOrders: false }));
    }
    await Promise.all(stops);
    this.changeSubject.complete();
  }

  // A window opened or a cron fired: start a run unless the job is halted, paused or already busy.
  private begin(slot: Slot, reason: RunReason): void {
    const { name } = slot.job;
    if (slot.paused) {
      this.logger.info({ job: name, reason }, `job ${name} not started: paused`);
    } else if (slot.halt !== undefined) {
      this.logger.warn(
        { job: name, reason: slot.halt.reason },
        `job ${name} not started: halted until ${new Date(slot.halt.until).toISOString()}`,
      );
    } else if (slot.run !== undefined || slot.restart !== undefined) {
      this.logger.warn({ job: name }, `job ${name} not started: the previous run is still going`);
    } else {
      this.startRun(slot, reason, 0);
    }
  }

  private startRun(slot: Slot, reason: RunReason, attempt: number): void {
    const { job } = slot;
    const abort = new AbortController();
    let handle: JobRun;
    try {
      handle = this.options.runner.start(job, { reason, attempt, closesAt: slot.window?.closesAt, signal: abort.signal });
    } catch (error) {
      this.crashed(slot, error);
      return;
    }
    const subscription = handle.events?.subscribe({ next: (event) => this.reportRunEvent(slot, event) });
    const run: ActiveRun = { handle, abort, startedAt: this.options.clock.now(), stopping: undefined, subscription };
    slot.run = run;
    slot.runs++;
    this.logger.info({ job: job.name, reason, attempt }, `job ${job.name} started`);
    this.changed(slot);
    handle.done.then(
      (outcome) => {
        if (slot.run !== run) return;
        this.endRun(slot);
        slot.lastResult = { at: this.options.clock.now(), outcome, message: undefined };
        this.logger.info({ job: job.name, outcome }, `job ${job.name} ${outcome}`);
        this.changed(slot);
      },
      (error: unknown) => {
        if (slot.run !== run) return;
        const wasStopping = run.stopping !== undefined;
        this.endRun(slot);
        if (wasStopping) {
          const message = this.recordError(slot, error);
          slot.lastResult = { at: this.options.clock.now(), outcome: 'stopped', message };
          this.changed(slot);
        } else {
          this.crashed(slot, error);
        }
      },
    );
  }

  private crashed(slot: Slot, error: unknown): void {
    const { job } = slot;
    const now = this.options.clock.now();
    const policy = job.restart;
    slot.crashes = [...slot.crashes.filter((at) => now - at < policy.windowMs), now];
    const message = this.recordError(slot, error);
    slot.lastResult = { at: now, outcome: 'crashed', message };
    const count = slot.crashes.length;
    const within = `${count} crash${count === 1 ? '' : 'es'} in ${formatDuration(policy.windowMs)}`;
    if (count > policy.maxRestarts) {
      this.logger.error({ job: job.name, error: message, crashes: count }, `job ${job.name} halted after ${within}`);
      this.notifier.notify({
        kind: 'crash',
        job: job.name,
        message: `job ${job.name} crashed (${within}): ${message}`,
        details: { crashes: count },
      });
      this.haltSlot(slot, 'crashes');
      this.notifier.notify({
        kind: 'halt',
        job: job.name,
        message: `job ${job.name} halted for the rest of the market day after ${within}`,
        details: { reason: 'crashes', until: slot.halt?.until },
      });
      return;
    }
    const wanted = (job.trigger.kind === 'cron' || slot.window !== undefined) && !slot.paused;
    if (!wanted) {
      this.notifier.notify({ kind: 'crash', job: job.name, message: `job ${job.name} crashed after its window closed: ${message}` });
      this.changed(slot);
      return;
    }
    const delay = backoffDelay(count, policy.backoff, this.options.random);
    const at = now + delay;
    this.logger.warn(
      { job: job.name, error: message, crashes: count, restartInMs: delay },
      `job ${job.name} crashed; restarting in ${formatDuration(delay)}`,
    );
    this.notifier.notify({
      kind: 'crash',
      job: job.name,
      message: `job ${job.name} crashed (${within}): ${message}; restarting in ${formatDuration(delay)}`,
      details: { crashes: count, restartAt: at },
    });
    const timer = timerAt(this.options.clock, at, () => {
      slot.restart = undefined;
      this.startRun(slot, 'restart', count);
    });
    slot.restart = { at, timer };
    this.changed(slot);
  }

  // Halted until the start of the next local day of the job's market; a window still open then resumes.
  private haltSlot(slot: Slot, reason: HaltReason): void {
    const zone = timeZoneOf(slot.job.market);
    const today = localDate(this.options.clock.now(), zone);
    const until = startOfLocalDay(localDate(startOfLocalDay(today, zone) + 36 * 3_600_000, zone), zone);
    this.cancelRestart(slot);
    slot.halt?.timer.cancel();
    const timer = timerAt(this.options.clock, until, () => {
      slot.halt = undefined;
      slot.crashes = [];
      this.logger.info({ job: slot.job.name }, `job ${slot.job.name} no longer halted`);
      this.startIfWanted(slot);
    });
    slot.halt = { reason, until, timer };
    this.changed(slot);
  }

  private async stopRun(slot: Slot, options: StopOptions): Promise<number | undefined> {
    const run = slot.run;
    if (run === undefined) return undefined;
    if (run.stopping === undefined) {
      run.stopping = this.stopWithin(slot, run, options);
      this.changed(slot);
    }
    return run.stopping;
  }

  private async stopWithin(slot: Slot, run: ActiveRun, options: StopOptions): Promise<number | undefined> {
    const grace = new AbortController();
    const timeoutMs = this.options.stopTimeoutMs ?? 30_000;
    const stopped = run.handle.stop(options).catch((error: unknown) => void this.recordError(slot, error));
    const timedOut = sleep(this.options.clock, timeoutMs, grace.signal).then(
      () => true,
      () => false,
    );
    const late = await Promise.race([stopped.then(() => false), timedOut]);
    grace.abort();
    if (!late) {
      await run.handle.done.catch(() => undefined);
      return stopped;
    }
    this.logger.error(
      { job: slot.job.name, timeoutMs },
      `job ${slot.job.name} did not stop within ${formatDuration(timeoutMs)}; aborting it`,
    );
    run.abort.abort(new Error('stop timed out'));
    // A run that ignores its abort signal too is given up on, so shutdown always finishes.
    const abandon = new AbortController();
    const ended = await Promise.race([
      run.handle.done.then(
        () => true,
        () => true,
      ),
      sleep(this.options.clock, timeoutMs, abandon.signal).then(
        () => false,
        () => false,
      ),
    ]);
    abandon.abort();
    if (!ended && slot.run === run) {
      this.recordError(slot, new Error(`run did not end within ${formatDuration(2 * timeoutMs)} of the stop request; abandoned`));
      this.endRun(slot);
    }
  }

  private reportRunEvent(slot: Slot, event: JobRunEvent): void {
    const job = slot.job.name;
    if (event.kind === 'fill') {
      this.notifier.notify({
        kind: 'fill',
        job,
        message: `${job}: ${event.side} ${event.quantity} ${event.symbol} @ ${event.price}`,
        details: { ...event },
      });
    } else if (event.kind === 'denial') {
      this.notifier.notify({
        kind: 'denial',
        job,
        message: `${job}: order denied (${event.code}): ${event.message}`,
        details: { ...event },
      });
    } else {
      this.recordError(slot, new Error(event.message));
      this.changed(slot);
    }
  }

  // After a halt or a pause ends: a window open now gets its run; returns whether one started.
  private startIfWanted(slot: Slot): boolean {
    if (slot.window !== undefined && slot.run === undefined && slot.halt === undefined && !slot.paused && slot.restart === undefined) {
      this.startRun(slot, 'resume', 0);
      return slot.run !== undefined;
    }
    this.changed(slot);
    return false;
  }

  private unknown(name: string): ControlOutcome {
    return { done: false, message: `no job named ${name} (jobs: ${[...this.slots.keys()].join(', ')})` };
  }

  private endRun(slot: Slot): void {
    slot.run?.subscription?.unsubscribe();
    slot.run = undefined;
  }

  private cancelRestart(slot: Slot): void {
    slot.restart?.timer.cancel();
    slot.restart = undefined;
  }

  private recordError(slot: Slot, error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    slot.lastError = { at: this.options.clock.now(), message };
    return message;
  }

  private changed(slot: Slot): void {
    this.changeSubject.next(this.statusOf(slot));
  }

  private statusOf(slot: Slot): JobStatus {
    const state: JobRunState =
      slot.halt !== undefined
        ? 'halted'
        : slot.paused && slot.run === undefined
          ? 'paused'
          : slot.run?.stopping !== undefined
            ? 'stopping'
            : slot.run !== undefined
              ? 'running'
              : slot.restart !== undefined
                ? 'restarting'
                : 'idle';
    const now = this.options.clock.now();
    return {
      name: slot.job.name,
      state,
      haltReason: slot.halt?.reason,
      haltedUntil: slot.halt?.until,
      recentCrashes: slot.crashes.filter((at) => now - at < slot.job.restart.windowMs).length,
      restartAt: slot.restart?.at,
      runStartedAt: slot.run?.startedAt,
      runs: slot.runs,
      lastError: slot.lastError,
      paused: slot.paused,
      lastResult: slot.lastResult,
    };
  }
}
