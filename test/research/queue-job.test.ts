// A queued trial's key names what the trial runs, so a trial whose result Redis holds is not run again and
// no result is handed to another trial that merely has the same number in another plan or window; a job's id
// names the trials it holds.
import { describe, expect, it } from 'vitest';
import { jobId, trialKey } from '../../src/research/queue/job.js';

describe('the key of a queued trial', () => {
  it('is the same for the same parameters and window, whatever its number or the order of its parameters', () => {
    expect(trialKey('run', { index: 0, combo: { fast: '5', slow: '30' } })).toBe(
      trialKey('run', { index: 7, combo: { slow: '30', fast: '5' } }),
    );
  });

  it('differs for other parameters, another window, or another run', () => {
    const trial = { index: 0, combo: { fast: '5', slow: '30' } };
    const keys = [
      trialKey('run', trial),
      trialKey('run', { ...trial, combo: { fast: '5', slow: '40' } }),
      trialKey('run', { ...trial, range: { from: 0, to: 1000 } }),
      trialKey('run', { ...trial, range: { from: 1000, to: 2000 } }),
      trialKey('other', trial),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the id of a job', () => {
  const one = { index: 0, combo: { fast: '5', slow: '30' } };
  const two = { index: 1, combo: { fast: '6', slow: '30' } };

  it('of one trial is that trial’s key', () => {
    expect(jobId('run', [one])).toBe(trialKey('run', one));
  });

  it('differs with the trials held, their order, and the run, and is the same for the same trials', () => {
    const ids = [jobId('run', [one, two]), jobId('run', [two, one]), jobId('run', [one]), jobId('other', [one, two])];
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      jobId('run', [
        { ...one, index: 9 },
        { ...two, index: 10 },
      ]),
    ).toBe(jobId('run', [one, two]));
  });
});
