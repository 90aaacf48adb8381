// Jobs on the queue hold one trial until a job's time is known, then as many as take about JOB_MS, never more
// than MAX_JOB_TRIALS or a SPREAD-th of what is left to queue.
import { describe, expect, it } from 'vitest';
import { JOB_MS, JobSizer, MAX_JOB_TRIALS, nextJobs } from '../../src/research/queue/job-size.js';

describe('the size of a queued job', () => {
  it('is one trial until a job has told its time', () => {
    const sizer = new JobSizer();
    expect([sizer.measured, sizer.size(10_000)]).toEqual([false, 1]);
  });

  it('is as many trials as take about JOB_MS, from the time per trial of the last job', () => {
    const sizer = new JobSizer();
    sizer.observe(4, 40);
    expect([sizer.measured, sizer.size(10_000)]).toEqual([true, JOB_MS / 10]);
    sizer.observe(1, JOB_MS * 3);
    expect(sizer.size(10_000)).toBe(1);
  });

  it('is at most MAX_JOB_TRIALS, and shrinks near the end so the last trials spread over the workers', () => {
    const sizer = new JobSizer();
    sizer.observe(100, 1);
    expect(sizer.size(100_000)).toBe(MAX_JOB_TRIALS);
    expect(sizer.size(160)).toBe(10);
    expect(sizer.size(3)).toBe(1);
  });

  it('ignores a time that says nothing (no trials, not a number)', () => {
    const sizer = new JobSizer();
    sizer.observe(0, 10);
    sizer.observe(3, Number.NaN);
    expect(sizer.measured).toBe(false);
  });
});

describe('the next jobs to queue', () => {
  const trials = Array.from({ length: 200 }, (_, index) => index);

  it('hold every trial that fits in the room once, in order, the last job holding what is left', () => {
    const jobs = nextJobs(trials, 4096, 13);
    expect(jobs.map((job) => job.length)).toEqual([...Array.from({ length: 15 }, () => 13), 5]);
    expect(jobs.flat()).toEqual(trials);
  });

  it('stop at the room, even inside a job', () => {
    expect(nextJobs(trials, 30, 13).map((job) => job.length)).toEqual([13, 13, 4]);
    expect(nextJobs(trials, 0, 13)).toEqual([]);
    expect(nextJobs([], 10, 3)).toEqual([]);
  });
});
