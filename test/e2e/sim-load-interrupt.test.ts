// `trader sim` stopped by Ctrl-C or SIGTERM while it reads a big candle file: the read stops at once (it goes
// a few MB at a time), nothing is opened or printed, and the command exits as an interrupted start: 130.
// --verbose: its debug line says when the read starts.
import { describe, expect, it } from 'vitest';
import { bigMinuteFolder } from '../support/run/big-minute-file.js';
import { spawnTrader } from '../support/run/spawn-run.js';

const folderOf = bigMinuteFolder();

describe('trader sim interrupted while it reads its data', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s stops reading and exits 130 without opening anything',
    async (signal) => {
      const sim = spawnTrader(['sim', '--data', folderOf(), '--port', '0', '--verbose']);
      await sim.waitForLog('reading the data', 60_000);

      const exit = await sim.signal(signal);

      expect(exit).toEqual({ code: 130, signal: null });
      expect(sim.stderr()).toContain('interrupted while starting: the data was not all read; nothing was left running');
      // Read to the end, the data would have started the simulator, which prints its LONGPORT_* variables.
      expect(sim.stdout()).toBe('');
    },
    120_000,
  );
});
