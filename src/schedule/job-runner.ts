// The port through which the supervisor runs a job; the strategy runtime implements it (and tests stub it).
import type { Observable } from 'rxjs';
import type { ScheduleJob } from './job.js';

/**
 * Why a run starts: a window opened, a window found open at startup (or on resuming the job), a cron fire,
 * a restart after a crash, or a person asking for a run now (dashboard, chat).
 */
export type RunReason = 'window' | 'resume' | 'fire' | 'restart' | 'manual';

export interface RunContext {
  readonly reason: RunReason;
  /** 0 for a first run, n for the n-th restart after crashes. */
  readonly attempt: number;
  /** When the job's window closes (window jobs only). */
  readonly closesAt: number | undefined;
  /** Aborted when the run must end at once: a graceful stop took too long, or the process is going down. */
  readonly signal: AbortSignal;
}

/** 'time-up': a cron run reached its `runFor`; 'paused': a person paused the job. */
export type StopReason = 'window-closed' | 'kill-switch' | 'shutdown' | 'time-up' | 'paused';

export interface StopOptions {
  readonly reason: StopReason;
  /** Close the job's positions (flattenAtStop at a window close). */
  readonly flatten: boolean;
  readonly cancelOpenOrders: boolean;
}

/** Things a run reports that people may want to hear about. Quantities and prices are decimal strings. */
export type JobRunEvent =
  | {
      readonly kind: 'fill';
      readonly symbol: string;
      readonly side: string;
      readonly quantity: string;
      readonly price: string;
      readonly orderId: string;
    }
  | { readonly kind: 'denial'; readonly code: string; readonly message: string; readonly symbol?: string }
  | { readonly kind: 'error'; readonly message: string };

export interface JobRun {
  /** Resolves when the run ends by itself ('completed') or after stop() ('stopped'); rejects when it crashes. */
  readonly done: Promise<'completed' | 'stopped'>;
  readonly events?: Observable<JobRunEvent>;
  /** Asks the run to wind down; resolves once it has, to how many open orders it cancelled when it knows. */
  stop(options: StopOptions): Promise<number | undefined>;
}

export interface JobRunner {
  start(job: ScheduleJob, context: RunContext): JobRun;
}
