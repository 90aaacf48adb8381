// One JobRunner over two: strategy jobs go to the runtime's runner, built-in tasks (fetch-data) to theirs.
import type { JobRun, JobRunner, RunContext } from './job-runner.js';
import type { ScheduleJob } from './job.js';

export function routeJobs(runners: { readonly strategy: JobRunner; readonly task: JobRunner }): JobRunner {
  return {
    start: (job: ScheduleJob, context: RunContext): JobRun =>
      (job.target.kind === 'strategy' ? runners.strategy : runners.task).start(job, context),
  };
}
