// `trader run` stopped by Ctrl-C or SIGTERM while its paper simulator reads a big candle file: the read stops
// at once (it goes a few MB at a time, letting the signal's handler run), so the simulator never starts, and
// the run exits as an interrupted start does: status 130, nothing printed on stdout.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnRun } from '../support/run/spawn-run.js';

/** Minute bars of a US stock, 390 a weekday: about 100 MB, long to read next to a signal's way to the process. */
const ROWS = 2_000_000;

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'run-load-interrupt-'));
  const file = createWriteStream(join(folder, 'AAPL.US.csv'));
  file.write('datetime,open,high,low,close,volume\n');
  for (let day = 0, written = 0; written < ROWS; day += 1) {
    const date = new Date(Date.UTC(2000, 0, 3) + day * 86_400_000);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const text = date.toISOString().slice(0, 10);
    let rows = '';
    for (let minute = 570; minute < 960 && written < ROWS; minute += 1, written += 1) {
      const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
      rows += `${text} ${time},100.5,101.25,99.75,100.75,${1_000 + (minute % 7)}\n`;
    }
    if (!file.write(rows)) await once(file, 'drain');
  }
  file.end();
  await once(file, 'close');
}, 120_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('trader run interrupted while its paper data loads', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s stops reading the data and exits 130 before the simulator starts',
    async (signal) => {
      const journal = join(folder, `${signal}.sqlite`);
      const run = spawnRun(['strategies/sma-crossover.ts', '--symbols', 'AAPL.US', '--data', folder, '--journal', journal, '--for', '10m']);
      // Its first line comes just before the simulator reads the data.
      await run.waitForLog('paper trading: sma-crossover on AAPL.US', 60_000);

      const exit = await run.signal(signal);

      expect(exit).toEqual({ code: 130, signal: null });
      expect(run.stderr()).toContain('interrupted while starting: the start was cut short; nothing was left running');
      // Read to the end, the data would have started the simulator (and the run's summary would follow a stop).
      expect(run.stderr()).not.toContain('simulator listening');
      expect(run.stdout()).toBe('');
    },
    120_000,
  );
});
