import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock/system-clock.js';
import { configFromEnv } from '../../src/openapi/config.js';
import { createOpenApiHttp } from '../../src/openapi/http/client.js';
import { HK, minuteCandles, US, writeCandleFolder } from '../support/sim/candles.js';
import { runTrader } from '../support/http/run-trader.js';
import { spawnSim } from '../support/sim/spawn-sim.js';

let data: string;
let stateFolder: string;

beforeAll(async () => {
  data = await writeCandleFolder([minuteCandles(HK), minuteCandles(US)]);
  stateFolder = await mkdtemp(join(tmpdir(), 'sim-cli-state-'));
});

afterAll(async () => {
  await rm(data, { recursive: true, force: true });
  await rm(stateFolder, { recursive: true, force: true });
});

/** `export NAME=value` lines → an environment. */
function parseExports(lines: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    lines.map((line) => {
      const match = /^export (LONGPORT_[A-Z_]+)=(.+)$/.exec(line);
      if (match === null) throw new Error(`not an export line: ${line}`);
      return [match[1]!, match[2]!];
    }),
  );
}

describe('trader sim', () => {
  it('prints the six LONGPORT_* export lines, serves a client configured from them, and exits 0 on SIGTERM', async () => {
    const sim = spawnSim([
      '--data',
      data,
      '--speed',
      '60',
      '--cash',
      '250000',
      '--currency',
      'HKD',
      '--state',
      join(stateFolder, 'sim.sqlite'),
    ]);
    const env = parseExports(await sim.stdoutLines(6));
    expect(Object.keys(env)).toEqual([
      'LONGPORT_APP_KEY',
      'LONGPORT_APP_SECRET',
      'LONGPORT_ACCESS_TOKEN',
      'LONGPORT_HTTP_URL',
      'LONGPORT_QUOTE_WS_URL',
      'LONGPORT_TRADE_WS_URL',
    ]);
    expect(env['LONGPORT_QUOTE_WS_URL']).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v2\/quote$/);
    const client = createOpenApiHttp(configFromEnv(env), { clock: systemClock });
    try {
      const [balance] = await client.accountBalance();
      expect([balance!.currency, balance!.totalCash.toFixed()]).toEqual(['HKD', '250000']);
    } finally {
      await client.close();
    }
    const { code, stderr } = await sim.stop('SIGTERM');
    expect(code).toBe(0);
    expect(stderr).toContain('simulator stopped');
  });

  it('prints the variables as one JSON object with --json and stops on SIGINT', async () => {
    const sim = spawnSim(['--data', data, '--json', '--seed', '3', '--fault-push-drop', '0.1']);
    const lines = await sim.stdoutLines(8);
    const env = JSON.parse(lines.join('\n')) as Record<string, string>;
    expect(env['LONGPORT_HTTP_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await sim.stop('SIGINT')).code).toBe(0);
  });

  it('names the flag of a bad value and exits 2 before starting', async () => {
    const run = await runTrader(['sim', '--data', data, '--fault-http-5xx', '1.5'], {});
    expect([run.code, run.stderr.trim()]).toEqual([2, 'error: --fault-http-5xx: must be a fraction from 0 to 1 (got 1.5)']);
    const foreign = await runTrader(['sim', '--data', data, '--host', '192.0.2.1'], {});
    expect([foreign.code, foreign.stderr.trim()]).toEqual([
      2,
      'error: --host: cannot listen on 192.0.2.1 (EADDRNOTAVAIL): give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0',
    ]);
    const endless = await runTrader(['sim', '--data', data, '--speed', '1e400'], {});
    expect([endless.code, endless.stderr.trim()]).toEqual([2, 'error: --speed: must be a finite number greater than zero (got Infinity)']);
    // The generator keeps 32 bits: a fraction or a negative seed is no other seed.
    for (const seed of ['1.5', '-1']) {
      const badSeed = await runTrader(['sim', '--data', data, '--seed', seed], {});
      expect([badSeed.code, badSeed.stderr.trim()]).toEqual([2, `error: --seed: a whole number from 0 to 4294967295, got ${seed}`]);
    }
    const missing = await runTrader(['sim', '--data', join(data, 'nowhere')], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
  }, 120_000);

  it('stops on a bad CSV row naming the file and line, and with --on-bad-row skip drops it with a warning and serves the rest', async () => {
    const bad = await mkdtemp(join(tmpdir(), 'sim-bad-'));
    const file = join(bad, 'AAPL.US.csv');
    await writeFile(
      file,
      'date,open,high,low,close,volume\n2024-01-02,1,2,0.5,1.5,100\n2024-01-03,1,0.5,2,1,100\n2024-01-04,1,2,0.5,1.5,100\n',
    );
    try {
      const failed = await runTrader(['sim', '--data', bad], {});
      expect(failed.code).not.toBe(0);
      expect(failed.stdout).toBe('');
      expect(failed.stderr).toContain(`${file}:3: high 0.5 is below low 2`);

      const sim = spawnSim(['--data', bad, '--on-bad-row', 'skip']);
      const env = parseExports(await sim.stdoutLines(6));
      expect(env['LONGPORT_HTTP_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const stopped = await sim.stop('SIGTERM');
      expect(stopped.code).toBe(0);
      expect(stopped.stderr).toContain(`${file}:3: high 0.5 is below low 2`);
      expect(stopped.stderr).toContain('skipped a bad candle row');

      const wrong = await runTrader(['sim', '--data', bad, '--on-bad-row', 'ignore'], {});
      expect([wrong.code, wrong.stderr.trim()]).toEqual([2, 'error: --on-bad-row: "ignore" is not one of fail, skip']);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a candle file without rows, or out of time order, with exit status 2 and what to do', async () => {
    const bad = await mkdtemp(join(tmpdir(), 'sim-cli-bad-'));
    try {
      await writeFile(join(bad, 'EMPTY.US.csv'), 'date,open,high,low,close,volume\n');
      const days = Array.from({ length: 30 }, (_, index) => new Date(Date.UTC(2024, 0, 2 + index)).toISOString().slice(0, 10));
      await writeFile(
        join(bad, 'NEWEST.US.csv'),
        `date,open,high,low,close,volume\n${days
          .reverse()
          .map((day) => `${day},10,11,9,10,100`)
          .join('\n')}\n`,
      );
      const [empty, unsorted] = await Promise.all([
        runTrader(['sim', '--data', join(bad, 'EMPTY.US.csv')], {}),
        runTrader(['sim', '--data', join(bad, 'NEWEST.US.csv')], {}),
      ]);
      expect([empty.code, empty.stderr.trim()]).toEqual([2, `error: ${join(bad, 'EMPTY.US.csv')}: no rows after the header`]);
      expect(unsorted.code).toBe(2);
      expect(unsorted.stderr).toContain('not in time order');
      expect(unsorted.stderr).toContain('sort the file by time');
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  }, 90_000); // two processes, each taking seconds to start on a loaded machine

  it('explains every flag in --help', async () => {
    const help = await runTrader(['sim', '--help'], {});
    for (const flag of [
      '--port',
      '--data',
      '--speed',
      '--cash',
      '--currency',
      '--seed',
      '--state',
      '--fault-http-5xx',
      '--fault-socket-drop-after',
      '--app-key',
      '--on-bad-row',
      '--json',
    ]) {
      expect(help.stdout).toContain(flag);
    }
  });
});
