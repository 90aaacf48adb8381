import { describe, expect, it } from 'vitest';
import { errorTeller } from '../../../src/cli/research/worker-command.js';

describe("a queue worker's connection errors", () => {
  it('are told once while they repeat, again after a trial ran, and each new one at once', () => {
    const lines: string[] = [];
    const errors = errorTeller((line) => lines.push(line));
    const refused = new Error('connect ECONNREFUSED 10.0.0.5:6379');
    errors.tell(refused);
    errors.tell(refused);
    errors.tell(refused);
    errors.tell(new Error('connect ETIMEDOUT'));
    errors.trialRan();
    errors.tell(refused);
    expect(lines).toEqual([
      'worker: connect ECONNREFUSED 10.0.0.5:6379 (retrying)\n',
      'worker: connect ETIMEDOUT (retrying)\n',
      'worker: connect ECONNREFUSED 10.0.0.5:6379 (retrying)\n',
    ]);
  });
});
