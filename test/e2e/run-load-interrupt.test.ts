// `trader run` stopped by Ctrl-C or SIGTERM while its paper simulator reads a big candle file: the read stops
// at once (it goes a few MB at a time, letting the signal's handler run), so the simulator never starts, and
// the run exits as an interrupted start does: status 130, nothing printed on stdout.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bigMinuteFolder } from '../support/run/big-minute-file.js';
import { spawnRun } from '../support/run/spawn-run.js';

const folderOf = bigMinuteFolder();

describe('trader run interrupted while its paper data loads', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s stops reading the data and exits 130 before the simulator starts',
    async (signal) => {
      const journal = join(folderOf(), `${signal}.sqlite`);
      const run = spawnRun([
        'strategies/sma-crossover.ts',
        '--symbols',
        'AAPL.US',
        '--data',
        folderOf(),
        '--journal',
        journal,
        '--for',
        '10m',
      ]);
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
