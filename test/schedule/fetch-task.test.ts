import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FetchTaskRunner } from '../../src/cli/schedule/fetch-task.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { parseScheduleConfig } from '../../src/schedule/config.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';
import { BARS_PER_DAY, US } from '../support/sim/candles.js';

let sim: SimHarness | undefined;
let folder: string | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('the fetch-data task', () => {
  it("downloads the job's bars from lookback ago to today into SYMBOL.csv, and resumes where the file ends", async () => {
    // The simulator has 2 and 3 January as history; the task runs on 4 January in New York.
    sim = await startSimHarness({ from: '2024-01-04' });
    folder = await mkdtemp(join(tmpdir(), 'fetch-task-'));
    const job = parseScheduleConfig(
      `jobs:\n  - { name: bars, task: fetch-data, symbols: [${US}], cron: "0 18 * * 1-5", period: 1m, lookback: 5d, dataDir: ${folder} }\n`,
      'schedule.yaml',
    ).jobs[0]!;
    const runner = new FetchTaskRunner(await sim.quoteClient(), new VirtualClock(Date.parse('2024-01-04T23:00:00Z')), silentLogger);
    const context = { reason: 'fire' as const, attempt: 0, closesAt: undefined, signal: new AbortController().signal };

    const first = await runner.start(job, context).done;
    const written = await readFile(join(folder, `${US}.csv`), 'utf8');
    const second = await runner.start(job, context).done;

    expect(first).toBe('completed');
    const rows = written.trim().split('\n');
    expect(rows).toHaveLength(1 + 2 * BARS_PER_DAY);
    expect(rows[1]).toMatch(/^2024-01-02T09:30:00-05:00,/);
    expect(second).toBe('completed');
    expect(await readFile(join(folder, `${US}.csv`), 'utf8')).toBe(written);
  });
});
