// How many trials a queued job holds. Every job costs Redis and both ends a few milliseconds of work, as much
// as a short trial, so short trials go several to a job, sized to take about JOB_MS on a worker: that keeps a
// job's cost small beside its trials, and what a killed worker's retried job runs again short. Until a job
// has come back and told its time, jobs hold one trial each, and only PROBE_TRIALS of them are queued.

/** A job is sized to take about this long on a worker. */
export const JOB_MS = 100;
export const MAX_JOB_TRIALS = 32;
/** Single-trial jobs queued before any job's time is known. */
export const PROBE_TRIALS = 16;
/** Jobs are at most this fraction of the trials left, so the last ones spread over the workers. */
const SPREAD = 16;

export class JobSizer {
  private trialMs: number | undefined;

  /** Whether a job has told its time. */
  get measured(): boolean {
    return this.trialMs !== undefined;
  }

  /** A job of `trials` trials took `ms` on its worker (with other jobs beside it: an upper bound per trial). */
  observe(trials: number, ms: number): void {
    if (trials > 0 && Number.isFinite(ms) && ms >= 0) this.trialMs = ms / trials;
  }

  /** Trials for the next job, `remaining` trials being left to queue. */
  size(remaining: number): number {
    if (this.trialMs === undefined) return 1;
    const wanted = Math.floor(JOB_MS / Math.max(this.trialMs, 1e-3));
    return Math.max(1, Math.min(wanted, MAX_JOB_TRIALS, Math.ceil(remaining / SPREAD)));
  }
}

/** The next jobs: up to `room` trials of `rest` (the trials not queued yet, in order), `size` to a job. */
export function nextJobs<Trial>(rest: readonly Trial[], room: number, size: number): Trial[][] {
  const jobs: Trial[][] = [];
  const end = Math.min(rest.length, Math.max(0, room));
  for (let from = 0; from < end; from += size) jobs.push(rest.slice(from, Math.min(from + size, end)));
  return jobs;
}
