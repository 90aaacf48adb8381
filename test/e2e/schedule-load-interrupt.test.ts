// `trader schedule` in paper mode stopped (SIGTERM from a supervisor, or Ctrl-C) while its simulator reads a
// big candle file: the read stops at once (it goes a few MB at a time), nothing opens, and the schedule exits 0
// as any stop does.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bigMinuteFolder } from '../support/run/big-minute-file.js';
import { spawnTrader } from '../support/run/spawn-run.js';
import { BUY_ON_QUOTE } from '../support/schedule/runner-harness.js';

const folderOf = bigMinuteFolder();

describe('trader schedule stopped while its paper data loads', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s stops reading the data and exits 0 with nothing started',
    async (signal) => {
      const config = join(folderOf(), `${signal}.yaml`);
      await writeFile(
        config,
        `mode: paper
stateDir: ${join(folderOf(), `state-${signal}`)}
paper: { data: ${folderOf()} }
jobs:
  - name: buyer
    strategy: ${BUY_ON_QUOTE}
    symbols: [AAPL.US]
    cron: "0 * * * * *"
    days: all
`,
      );
      const schedule = spawnTrader(['schedule', config, '--health-port', '0', '--json-logs']);
      // Its first line comes just before the simulator reads the data.
      await schedule.waitForLog('"msg":"paper schedule:', 60_000);

      const exit = await schedule.signal(signal);

      expect(exit).toEqual({ code: 0, signal: null });
      expect(schedule.stderr()).toContain('stopped while starting: the paper data was not all read; nothing was left running');
      // Read to the end, the data would have started the simulator, which says where its paper account is.
      expect(schedule.stderr()).not.toContain('paper account in');
    },
    120_000,
  );
});
