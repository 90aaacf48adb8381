// A hand-written JobRunner whose runs the test ends by hand: complete, crash, report fills; it records every
// start (with its context) and every stop request.
import { Subject } from 'rxjs';
import type { ScheduleJob } from '../../../src/schedule/job.js';
import type { JobRun, JobRunEvent, JobRunner, RunContext, StopOptions } from '../../../src/schedule/job-runner.js';

export class StubRun implements JobRun {
  readonly done: Promise<'completed' | 'stopped'>;
  readonly events = new Subject<JobRunEvent>();
  readonly stops: StopOptions[] = [];
  private settle!: { resolve: (outcome: 'completed' | 'stopped') => void; reject: (error: Error) => void };
  /** When false, stop() never finishes (a hung strategy). */
  stopsPromptly = true;

  constructor(
    readonly job: ScheduleJob,
    readonly context: RunContext,
    readonly startedAt: number,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Callers that never look at `done` must not see an unhandled rejection.
    this.done.catch(() => undefined);
  }

  complete(): void {
    this.settle.resolve('completed');
  }

  crash(message: string): void {
    this.settle.reject(new Error(message));
  }

  async stop(options: StopOptions): Promise<number | undefined> {
    this.stops.push(options);
    if (!this.stopsPromptly) return new Promise(() => undefined);
    this.settle.resolve('stopped');
    return undefined;
  }
}

export class StubRunner implements JobRunner {
  readonly runs: StubRun[] = [];
  /** Makes the next start() throw, like a strategy file that fails to load. */
  failNextStart: string | undefined;
  /** Runs of these jobs complete on their own right after starting (cron jobs whose work is quick). */
  readonly completing = new Set<string>();

  constructor(private readonly now: () => number) {}

  start(job: ScheduleJob, context: RunContext): JobRun {
    if (this.failNextStart !== undefined) {
      const message = this.failNextStart;
      this.failNextStart = undefined;
      throw new Error(message);
    }
    const run = new StubRun(job, context, this.now());
    this.runs.push(run);
    if (this.completing.has(job.name)) queueMicrotask(() => run.complete());
    return run;
  }

  runsOf(name: string): StubRun[] {
    return this.runs.filter((run) => run.job.name === name);
  }

  last(name: string): StubRun {
    const runs = this.runsOf(name);
    const run = runs[runs.length - 1];
    if (run === undefined) throw new Error(`no run of ${name}`);
    return run;
  }
}
