import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorTeller, trialTally, workerSettings } from '../../../src/cli/research/worker-command.js';
import { workerLine } from '../../../src/cli/research/worker-report.js';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';

describe("a queue worker's connection errors", () => {
  it('are told once while they repeat, again after a trial ran, and each new one at once (retried only when a connection failed)', () => {
    const lines: string[] = [];
    const errors = errorTeller((event) => lines.push(workerLine(event)));
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
      'worker: a job this worker ran lost its lock (it ran out: this machine too busy or --lock-ms too short; or Redis restarted without its data), so another worker may run it: its result is dropped\n',
      'worker: connect ECONNREFUSED 10.0.0.5:6379 (retrying)\n',
    ]);
  });
});

describe("a queue worker's words for jobs it could not file", () => {
  it('says what happened once, not once per job', () => {
    const lines: string[] = [];
    const errors = errorTeller((event) => lines.push(workerLine(event)));
    for (const id of ['9b170c68bd20675d-5ab4', '9b170c68bd20675d-77c1']) {
      errors.tell(new Error(`Missing key for job ${id}. moveToFinished`));
      errors.tell(new Error(`Missing key for job ${id}. retryJob`));
    }
    expect(lines).toEqual([
      'worker: a job this worker ran is no longer in Redis (Redis restarted without its data, or the run was stopped): its result is dropped\n',
    ]);
  });
});

describe("a queue worker's log while it works", () => {
  it('tells the trials so far at most every 30 s while they run, and nothing while the queue is idle', () => {
    const clock = new VirtualClock(0);
    const lines: string[] = [];
    const tally = trialTally(clock, (event) => lines.push(workerLine(event)));
    for (let second = 0; second < 29; second += 1) {
      tally.ran();
      clock.advanceBy(1_000);
    }
    expect(lines).toEqual([]);
    clock.advanceBy(1_000);
    tally.ran();
    expect(lines).toEqual(['worker: 30 trials so far, 30 in the last 30 s\n']);
    // Idle for ten minutes: no line until a trial runs again.
    clock.advanceBy(600_000);
    expect(lines).toHaveLength(1);
    tally.ran();
    expect(lines[1]).toBe('worker: 31 trials so far, 1 in the last 600 s\n');
  });
});

describe("a queue worker's flags", () => {
  it('refuse a --data path that does not exist before the worker connects, naming it', async () => {
    const missing = join(tmpdir(), 'no-such-folder-of-trader-data', 'SPX.US.csv');
    await expect(workerSettings({ queue: 'redis://127.0.0.1:6379/0', workers: 1, data: missing, 'lock-ms': 30_000 })).rejects.toThrow(
      `--data: ${missing} does not exist`,
    );
    await expect(workerSettings({ queue: 'redis://127.0.0.1:6379/0', workers: 1, data: tmpdir(), 'lock-ms': 30_000 })).resolves.toEqual({
      threads: 1,
      lockMs: 30_000,
    });
  });
});
