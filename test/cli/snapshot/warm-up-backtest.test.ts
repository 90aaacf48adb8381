import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { warmUpBacktest } from '../../../src/cli/snapshot/warm-up-backtest.js';
import { ZoneRules } from '../../../src/domain/time-zone.js';

/**
 * As the snapshot's build does before the warm-up: New York's rules from a table (here read from Temporal).
 * Without them it does not run (test/e2e/snapshot.test.ts builds a snapshot whose tables could not be made).
 */
function seedNewYork(): void {
  ZoneRules.seed(ZoneRules.of('America/New_York').table(1990, 2030));
}

describe('the backtest run while the backtest snapshot is built', () => {
  it('buys and closes (the order path runs, and is compiled in the snapshot), and leaves no files behind', async () => {
    seedNewYork();
    const before = (await readdir(tmpdir())).filter((name) => name.startsWith('trader-snapshot-warm-up-'));

    const fills = await warmUpBacktest();

    expect(fills).toBeGreaterThan(10);
    expect((await readdir(tmpdir())).filter((name) => name.startsWith('trader-snapshot-warm-up-'))).toEqual(before);
  });

  it('is left out, not failed, where no temporary folder can be made', async () => {
    seedNewYork();
    const given = process.env['TMPDIR'];
    process.env['TMPDIR'] = join(tmpdir(), 'no-such-folder', 'below');
    try {
      expect(await warmUpBacktest()).toBe(0);
    } finally {
      if (given === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = given;
    }
  });
});
