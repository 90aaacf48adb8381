// A queued trial's job id names what the trial runs, so BullMQ runs each trial once and never hands one
// trial's result to another that merely has the same number in another plan or window.
import { describe, expect, it } from 'vitest';
import { jobId } from '../../src/research/queue/job.js';

describe('the job id of a queued trial', () => {
  it('is the same for the same parameters and window, whatever its number or the order of its parameters', () => {
    expect(jobId('run', { index: 0, combo: { fast: '5', slow: '30' } })).toBe(jobId('run', { index: 7, combo: { slow: '30', fast: '5' } }));
  });

  it('differs for other parameters, another window, or another run', () => {
    const trial = { index: 0, combo: { fast: '5', slow: '30' } };
    const ids = [
      jobId('run', trial),
      jobId('run', { ...trial, combo: { fast: '5', slow: '40' } }),
      jobId('run', { ...trial, range: { from: 0, to: 1000 } }),
      jobId('run', { ...trial, range: { from: 1000, to: 2000 } }),
      jobId('other', trial),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });
});
