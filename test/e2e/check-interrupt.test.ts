// `trader check` stopped by Ctrl-C during its paper replay: the checks finished are printed, the replay's
// temporary journal is removed, exit 130.
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTrader } from '../support/socket/spawn-trader.js';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'check-interrupt-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('trader check, interrupted', () => {
  /** A check of determinism and parity, stopped by `signal` once its paper replay has started. */
  async function interrupted(signal: NodeJS.Signals, ...flags: string[]) {
    const marks = join(folder, `${signal}-marks.txt`);
    const temp = join(folder, `${signal}-tmp`);
    await mkdir(temp);
    // The whole 20-year file replayed on the simulator: seconds, long after the paper run has started.
    const check = spawnTrader(
      ['check', 'test/research/strategies/marks-runs.ts', '--only', 'determinism,parity', '--parity-bars', '5000', ...flags],
      { TRADER_TEST_MARKS: marks, TMPDIR: temp },
    );
    // Runs: the full one, determinism's two (in this process, then loaded again), parity's backtest, then the paper run.
    const started = async (): Promise<number> => (await readFile(marks, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    while ((await started()) < 5) await new Promise((done) => setImmediate(done));
    check.child.kill(signal);
    const exit = await new Promise<number | null>((done) => check.child.on('close', done));
    return { exit, stdout: check.lines.filter((line) => line !== ''), stderr: check.stderr(), temp: await readdir(temp) };
  }

  it('on Ctrl-C during the paper replay prints the checks finished, leaves no temporary files, exit 130', async () => {
    const { exit, stdout, stderr, temp } = await interrupted('SIGINT');

    expect(exit).toBe(130);
    expect(stdout).toEqual([expect.stringMatching(/^PASS {2}determinism {2}three runs over \d+ bars/)]);
    expect(stderr).toContain('interrupted: 1 of 2 checks finished\n');
    expect(temp).toEqual([]);
  }, 120_000);

  it('on SIGTERM with --json - gives the checks finished, interrupted and not passed', async () => {
    const { exit, stdout, temp } = await interrupted('SIGTERM', '--json', '-');

    expect(exit).toBe(130);
    expect(JSON.parse(stdout.join('\n'))).toMatchObject({
      passed: false,
      interrupted: true,
      judged: 1,
      checks: [{ check: 'determinism', status: 'PASS' }],
    });
    expect(temp).toEqual([]);
  }, 120_000);
});
