// Plans each job's fires on the Clock, gates them on the market calendar, and announces them as events.
// Only start fires and cron fires are gated: a stop always closes an open window, even on a holiday.
import { Subject, type Observable } from 'rxjs';
import type { Clock, TimerHandle } from '../domain/clock.js';
import { timeZoneOf } from '../domain/market-hours.js';
import { localDate } from '../domain/time-zone.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { MarketCalendar, TradingDay } from './calendar.js';
import { nextFire, previousFire, type CronExpression } from './cron.js';
import type { NextFire, ScheduleEvent, WindowCloseReason } from './events.js';
import type { ScheduleJob } from './job.js';
import { formatLocal } from './local-time.js';
import { timerAt } from './timer.js';

export interface SchedulerOptions {
  readonly clock: Clock;
  readonly calendar: MarketCalendar;
  readonly jobs: readonly ScheduleJob[];
  readonly logger?: Logger;
}

/** What the scheduler knows about a job right now (for status). */
export interface JobSchedule {
  readonly next: NextFire | undefined;
  readonly window: { readonly open: boolean; readonly closesAt: number | undefined };
  readonly lastFired: ScheduleEvent | undefined;
  readonly lastSkipped: Extract<ScheduleEvent, { kind: 'skipped' }> | undefined;
}

interface JobState {
  readonly job: ScheduleJob;
  next: (NextFire & { readonly timer: TimerHandle }) | undefined;
  close: { readonly at: number; readonly reason: WindowCloseReason; readonly timer: TimerHandle } | undefined;
  lastFired: ScheduleEvent | undefined;
  lastSkipped: Extract<ScheduleEvent, { kind: 'skipped' }> | undefined;
}

type Opening =
  | { readonly open: true; readonly day: TradingDay; readonly closesAt: number; readonly closeReason: WindowCloseReason }
  | {
      readonly open: false;
      readonly day: TradingDay;
      readonly reason: 'non-trading-day' | 'after-half-day-close';
      readonly detail: string;
    };

export class Scheduler {
  private readonly subject = new Subject<ScheduleEvent>();
  private readonly states: Map<string, JobState>;
  private readonly logger: Logger;
  private running = false;

  /** Every fire, skip, window opening and closing, in time order. */
  readonly events: Observable<ScheduleEvent> = this.subject.asObservable();

  constructor(private readonly options: SchedulerOptions) {
    this.logger = options.logger ?? silentLogger;
    this.states = new Map(
      options.jobs.map((job) => [job.name, { job, next: undefined, close: undefined, lastFired: undefined, lastSkipped: undefined }]),
    );
  }

  /** Resumes windows that are open now (restart safety), then plans every job's next fire. */
  async start(): Promise<void> {
    this.running = true;
    for (const state of this.states.values()) {
      if (state.job.trigger.kind === 'window') await this.resumeWindow(state, state.job.trigger.start);
    }
    for (const state of this.states.values()) this.planNext(state);
  }

  /** Cancels every timer and completes `events`. Open windows are not closed: the supervisor stops runs. */
  stop(): void {
    this.running = false;
    for (const state of this.states.values()) {
      state.next?.timer.cancel();
      state.close?.timer.cancel();
      state.next = undefined;
      state.close = undefined;
    }
    this.subject.complete();
  }

  schedule(jobName: string): JobSchedule | undefined {
    const state = this.states.get(jobName);
    if (state === undefined) return undefined;
    const next: NextFire | undefined =
      state.close !== undefined && (state.next === undefined || state.close.at <= state.next.at)
        ? { at: state.close.at, trigger: 'stop' }
        : state.next === undefined
          ? undefined
          : { at: state.next.at, trigger: state.next.trigger };
    return {
      next,
      window: { open: state.close !== undefined, closesAt: state.close?.at },
      lastFired: state.lastFired,
      lastSkipped: state.lastSkipped,
    };
  }

  private async resumeWindow(state: JobState, start: CronExpression): Promise<void> {
    const now = this.options.clock.now();
    const lastStart = previousFire(start, now, state.job.timezone);
    if (lastStart === undefined) return;
    const opening = await this.opening(state.job, lastStart);
    if (opening.open && opening.closesAt > now) this.openWindow(state, lastStart, opening, true);
  }

  private planNext(state: JobState): void {
    if (!this.running) return;
    const { job } = state;
    const expression = job.trigger.kind === 'cron' ? job.trigger.cron : job.trigger.start;
    // From now, not from the last fire: fires missed while the process was stalled or asleep are not replayed.
    const at = nextFire(expression, this.options.clock.now(), job.timezone);
    if (at === undefined) {
      this.logger.warn({ job: job.name }, 'job has no fire time within four years; it will never run');
      return;
    }
    const trigger = job.trigger.kind === 'cron' ? 'cron' : 'start';
    const timer = timerAt(this.options.clock, at, () => {
      state.next = undefined;
      this.planNext(state);
      void this.handleFire(state, trigger, at);
    });
    state.next = { at, trigger, timer };
  }

  private async handleFire(state: JobState, trigger: 'cron' | 'start', at: number): Promise<void> {
    const { job } = state;
    if (trigger === 'start' && state.close !== undefined) {
      this.logger.debug({ job: job.name }, 'start fire while the window is already open; ignored');
      return;
    }
    const opening = await this.opening(job, at);
    if (!this.running) return;
    if (!opening.open) {
      this.emit(state, {
        kind: 'skipped',
        job: job.name,
        at,
        local: formatLocal(at, job.timezone),
        trigger,
        reason: opening.reason,
        detail: opening.detail,
        day: opening.day,
      });
    } else if (trigger === 'cron') {
      this.emit(state, { kind: 'fired', job: job.name, at, local: formatLocal(at, job.timezone), day: opening.day });
    } else {
      this.openWindow(state, at, opening, false);
    }
  }

  // Whether a start (or cron) fire at `at` may run, and for windows until when.
  private async opening(job: ScheduleJob, at: number): Promise<Opening> {
    const calendar = this.options.calendar;
    const date = localDate(at, timeZoneOf(job.market));
    const stopAt = job.trigger.kind === 'window' ? (nextFire(job.trigger.stop, at, job.timezone) ?? Number.POSITIVE_INFINITY) : at;
    if (job.days === 'all')
      return { open: true, day: { market: job.market, date, kind: 'full', source: 'unchecked' }, closesAt: stopAt, closeReason: 'stop' };
    const day = await calendar.day(job.market, date);
    if (day.kind === 'closed') {
      return {
        open: false,
        day,
        reason: 'non-trading-day',
        detail: `${date} is not a trading day of ${job.market}${day.source === 'fallback' ? ' (weekday fallback)' : ''}`,
      };
    }
    if (day.kind === 'half') {
      const halfClose = calendar.halfDayClose(job.market, date);
      if (job.trigger.kind === 'window' && at >= halfClose) {
        return {
          open: false,
          day,
          reason: 'after-half-day-close',
          detail: `${date} is a half day of ${job.market}, closed at ${formatLocal(halfClose, timeZoneOf(job.market))}`,
        };
      }
      if (halfClose < stopAt) return { open: true, day, closesAt: halfClose, closeReason: 'half-day-close' };
    }
    return { open: true, day, closesAt: stopAt, closeReason: 'stop' };
  }

  private openWindow(state: JobState, at: number, opening: Extract<Opening, { open: true }>, resumed: boolean): void {
    const { job } = state;
    const timer = timerAt(this.options.clock, opening.closesAt, () => {
      state.close = undefined;
      this.emit(state, {
        kind: 'window-closed',
        job: job.name,
        at: opening.closesAt,
        local: formatLocal(opening.closesAt, job.timezone),
        reason: opening.closeReason,
      });
    });
    state.close = { at: opening.closesAt, reason: opening.closeReason, timer };
    this.emit(state, {
      kind: 'window-opened',
      job: job.name,
      at,
      local: formatLocal(at, job.timezone),
      day: opening.day,
      closesAt: opening.closesAt,
      closeReason: opening.closeReason,
      resumed,
    });
  }

  private emit(state: JobState, event: ScheduleEvent): void {
    if (event.kind === 'skipped') state.lastSkipped = event;
    else if (event.kind !== 'window-closed') state.lastFired = event;
    const { kind, job, local } = event;
    if (event.kind === 'skipped')
      this.logger.info({ job, event: kind, at: local, reason: event.reason, detail: event.detail }, `job ${job} skipped: ${event.detail}`);
    else
      this.logger.info(
        {
          job,
          event: kind,
          at: local,
          ...(event.kind === 'window-opened' ? { resumed: event.resumed, closesAt: formatLocal(event.closesAt, state.job.timezone) } : {}),
        },
        `job ${job} ${kind}`,
      );
    this.subject.next(event);
  }
}
