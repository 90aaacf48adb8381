import { describe, expect, it } from 'vitest';
import { errorTeller } from '../../../src/cli/research/worker-command.js';

describe("a queue worker's connection errors", () => {
  it('are told once while they repeat, again after a trial ran, and each new one at once (retried only when a connection failed)', () => {
    const lines: string[] = [];
    const errors = errorTeller((line) => lines.push(line));
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:6379'), { code: 'ECONNREFUSED' });
    errors.tell(refused);
    errors.tell(refused);
    errors.tell(refused);
    errors.tell(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }));
    errors.tell(new Error('Missing lock for job 1. moveToFinished'));
    errors.trialRan();
    errors.tell(refused);
    expect(lines).toEqual([
      'worker: connect ECONNREFUSED 10.0.0.5:6379 (retrying)\n',
      'worker: connect ETIMEDOUT (retrying)\n',
      'worker: Missing lock for job 1. moveToFinished\n',
      'worker: connect ECONNREFUSED 10.0.0.5:6379 (retrying)\n',
    ]);
  });
});
