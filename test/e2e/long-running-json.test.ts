// --json on the commands that run until stopped: `trader worker` gives what it reports as JSON lines on stdout;
// `trader schedule`, which prints no result (its log and `trader status` have JSON forms), refuses it by name.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTrader } from '../support/http/run-trader.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { spawnTrader } from '../support/socket/spawn-trader.js';

describe('trader worker --json', () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis.stop();
  });

  it('writes what it reports as JSON lines on stdout: ready, then stopped on Ctrl-C', async () => {
    const worker = spawnTrader(['worker', '--queue', redis.url, '--workers', '1', '--json'], {});
    await worker.waitForLine((line) => line.includes('"ready"'), 60_000);

    expect(await worker.interrupt()).toBe(0);
    expect(worker.lines.map((line) => JSON.parse(line))).toEqual([
      { type: 'ready', threads: 1, queue: redis.url },
      { type: 'stopped', trials: 0 },
    ]);
    expect(worker.stderr()).toContain(`worker ready: 1 thread on ${redis.url}\n`);
  }, 90_000);
});

describe('trader schedule --json', () => {
  it('is refused before anything starts, naming --json-logs and trader status --json instead (exit status 2)', async () => {
    // --state elsewhere: a schedule that did start would not write into the repository's state/.
    const state = join(tmpdir(), 'long-running-json-never-written');
    const schedule = await runTrader(['schedule', 'examples/schedule.yaml', '--state', state, '--json'], {});

    expect(schedule).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --json: trader schedule prints no result; --json-logs logs JSON lines, and `trader status --json` gives its status as JSON\n',
    });
  });
});
